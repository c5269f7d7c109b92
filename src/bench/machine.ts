// What the numbers were measured on: users compare runs across machines, so every report
// carries the CPU, its clock, the compiler of the engine and the MuJoCo that was linked.

import { readFileSync } from 'node:fs';
import os from 'node:os';
import { engineAddon } from '../engine/native.js';

export interface MachineInfo {
  cpuModel: string;
  /** Nominal clock from /proc/cpuinfo (MHz); what the peak-FLOP estimate assumes. */
  cpuMHz: number;
  logicalCpus: number;
  isaAvailable: string[];
  widestLanes: number;
  compiler: string;
  node: string;
  platform: string;
  mujoco: string | null;
  mujocoLib: string | null;
}

/** First "model name" and "cpu MHz" of /proc/cpuinfo, falling back to os.cpus() off Linux. */
export function readCpu(cpuinfo?: string): { model: string; mhz: number } {
  let text = cpuinfo;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/cpuinfo', 'utf8');
    } catch {
      text = '';
    }
  }
  const model = /^model name\s*:\s*(.+)$/m.exec(text)?.[1]?.trim();
  const mhz = Number(/^cpu MHz\s*:\s*([\d.]+)$/m.exec(text)?.[1]);
  const c = os.cpus()[0];
  return { model: model ?? c?.model ?? 'unknown', mhz: Number.isFinite(mhz) && mhz > 0 ? mhz : (c?.speed ?? 0) };
}

export function machineInfo(mujoco: { version: string; lib: string } | null): MachineInfo {
  const cpu = engineAddon().cpuInfo();
  const { model, mhz } = readCpu();
  return {
    cpuModel: model,
    cpuMHz: mhz,
    logicalCpus: os.cpus().length,
    isaAvailable: ['scalar', ...(cpu.sse2 ? ['SSE2'] : []), ...(cpu.avx2 ? ['AVX2'] : []), ...(cpu.avx512 ? ['AVX-512'] : [])],
    widestLanes: cpu.widestLanes,
    compiler: cpu.compiler,
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    mujoco: mujoco?.version ?? null,
    mujocoLib: mujoco?.lib ?? null,
  };
}
