// The import stage's gates with the importer as it is and with each planted importer bug: tens of
// seconds of synchronous work, so test/import.test.ts runs it through inChild. The bug switch is
// this child's own state; the test's process never has a bug set.
import type { CheckRow } from '../../../src/validation/types.js';
import { engineAddon } from '../../../src/engine/native.js';
import { setImportBug, type ImportBug } from '../../../src/model-files/import/bugs.js';
import { importRows, type ImportReference } from '../../../src/validation/import/stage.js';

export function importRowsPerBug(ref: ImportReference, bugs: readonly ImportBug[]): { clean: CheckRow[]; withBug: CheckRow[][] } {
  const clean = importRows(ref, engineAddon());
  const withBug: CheckRow[][] = [];
  try {
    for (const bug of bugs) {
      setImportBug(bug);
      withBug.push(importRows(ref, engineAddon()));
    }
  } finally {
    setImportBug('none');
  }
  return { clean, withBug };
}
