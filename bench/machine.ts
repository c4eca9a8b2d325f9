/** The machine a run came from: written into every result file. */
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface MachineInfo {
  cpu: string;
  cores: number;
  ramGiB: number;
  node: string;
  platform: string;
  note: string;
}

export function machineInfo(note: string): MachineInfo {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1].trim();
  } catch {
    // Not Linux: os.cpus() is good enough.
  }
  return {
    cpu, cores: os.cpus().length, ramGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version, platform: `${os.platform()} ${os.release()}`, note,
  };
}
