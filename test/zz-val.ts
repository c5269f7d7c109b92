import { main } from '../src/cli/main.ts';
const code = await main(['node', 'achilles', ...process.argv.slice(2)]);
process.exit(code);
