// The replay as one self-contained HTML file: the header as JSON, the poses as base64, the viewer
// (three.js included) as an inline script. Opening it needs no network and no server.

import type { ReplayHeader } from './replay-data.js';
import { viewerScript } from './bundle.js';

/** JSON that is safe inside a <script> element ("<" never appears raw). */
function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

const STYLE = `
html, body { margin: 0; height: 100%; background: #1d2026; color: #e8e8e8; font: 13px/1.35 system-ui, sans-serif; overflow: hidden; }
#view { position: absolute; inset: 0 0 48px 0; width: 100%; height: calc(100% - 48px); display: block; }
#meta { position: absolute; top: 8px; left: 8px; background: rgba(0,0,0,.45); padding: 6px 9px; border-radius: 4px; pointer-events: none; }
#meta .k { color: #9aa3b5; display: inline-block; min-width: 74px; }
#panel { position: absolute; top: 8px; right: 8px; background: rgba(0,0,0,.45); padding: 6px 9px; border-radius: 4px; display: flex; flex-direction: column; gap: 3px; }
#robots { display: flex; flex-direction: column; gap: 2px; max-height: 40vh; overflow: auto; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin: 0 3px; }
#note { position: absolute; top: 8px; left: 50%; transform: translateX(-50%); background: #6b4a12; padding: 5px 10px; border-radius: 4px; max-width: 50%; }
#bar { position: absolute; left: 0; right: 0; bottom: 0; height: 48px; display: flex; align-items: center; gap: 8px; padding: 0 10px; background: #14161b; box-sizing: border-box; }
#time { flex: 1; }
#clock { min-width: 190px; font-variant-numeric: tabular-nums; }
button, select { background: #2c313b; color: #e8e8e8; border: 1px solid #454c5a; border-radius: 3px; padding: 3px 8px; font: inherit; }
`;

const BODY = `
<canvas id="view"></canvas>
<div id="meta"></div>
<div id="note" hidden></div>
<div id="panel">
  <label id="contacts-label"><input type="checkbox" id="show-contacts" checked> contacts + normals</label>
  <label><input type="checkbox" id="show-frames"> joint frames</label>
  <label><input type="checkbox" id="show-com"> centre of mass</label>
  <label><input type="checkbox" id="show-trail"> trail of <select id="trail-body"></select></label>
  <label id="layout-label"><input type="checkbox" id="side-by-side"> side by side</label>
  <div id="robots"></div>
</div>
<div id="bar">
  <button id="play" title="play / pause (space)">Play</button>
  <button id="prev" title="previous frame (left arrow)">&#9664;|</button>
  <button id="next" title="next frame (right arrow)">|&#9654;</button>
  <input type="range" id="time" min="0" max="0" step="1" value="0" aria-label="time">
  <span id="clock"></span>
  <label>speed <select id="speed"></select></label>
  <button id="reset" title="reset the camera">Reset view</button>
</div>`;

export async function replayHtml(header: ReplayHeader, bytes: Uint8Array): Promise<string> {
  const script = await viewerScript();
  const title = `${header.meta.model}: replay (${header.meta.integrator}, dt ${header.meta.dt} s)`.replace(/[<&]/g, '');
  const b64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // An inline icon: browsers otherwise ask the server for /favicon.ico.
    '<link rel="icon" href="data:,">',
    `<title>${title}</title>`,
    `<style>${STYLE}</style>`,
    '</head><body>',
    BODY,
    `<script id="replay-header" type="application/json">${inlineJson(header)}</script>`,
    `<script id="replay-data" type="application/octet-stream">${b64}</script>`,
    `<script>${script}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
