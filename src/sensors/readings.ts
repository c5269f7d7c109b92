// What controllers see: every sensor channel of every robot in one structure-of-arrays buffer laid
// out like the batch's own fields (channel c of robot r at data[c * stride + r]), updated in place
// after every step: the same object and the same arrays for the whole run, so a controller can
// keep views.

export class SensorReadings {
  readonly data: Float64Array;
  private readonly index = new Map<string, number>();
  private readonly sensors = new Map<string, { first: number; dim: number }>();

  constructor(
    readonly channels: readonly string[],
    readonly stride: number,
    sensors: readonly { name: string; first: number; dim: number }[],
  ) {
    this.data = new Float64Array(channels.length * stride);
    channels.forEach((c, i) => this.index.set(c, i));
    for (const s of sensors) this.sensors.set(s.name, { first: s.first, dim: s.dim });
  }

  /** One channel of every robot (length stride; robot r at [r]). */
  channel(name: string): Float64Array {
    const i = this.index.get(name);
    if (i === undefined) throw new Error(`no sensor channel '${name}' (channels: ${this.channels.join(', ') || 'none'})`);
    return this.data.subarray(i * this.stride, (i + 1) * this.stride);
  }

  /** All channels of one sensor (channel k of robot r at [k * stride + r]). */
  sensor(name: string): Float64Array {
    const s = this.sensors.get(name);
    if (!s) throw new Error(`no sensor '${name}' (sensors: ${[...this.sensors.keys()].join(', ') || 'none'})`);
    return this.data.subarray(s.first * this.stride, (s.first + s.dim) * this.stride);
  }

  /** Every sensor (all its channels) and every channel by name, as views on `data` (made once:
   *  the same arrays for the whole run). The controllers' `io.sensors`. */
  views(): Record<string, Float64Array> {
    if (!this.viewCache) {
      const v: Record<string, Float64Array> = {};
      for (const name of this.sensors.keys()) v[name] = this.sensor(name);
      for (const c of this.channels) v[c] = this.channel(c);
      this.viewCache = v;
    }
    return this.viewCache;
  }
  private viewCache: Record<string, Float64Array> | undefined;

  /** Index of a channel in `channels`. */
  channelIndex(name: string): number {
    return this.index.get(name) ?? -1;
  }
}
