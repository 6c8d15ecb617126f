// Latency percentiles from raw samples (autocannon's own histogram keeps whole milliseconds, too coarse
// for sub-millisecond routes).

/** A growable buffer of float samples. */
export class SampleBuffer {
  private values = new Float64Array(1 << 16);
  private size = 0;

  push(value: number): void {
    if (this.size === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.size++] = value;
  }

  get count(): number {
    return this.size;
  }

  /** The samples in ascending order (a copy). */
  sorted(): Float64Array {
    return this.values.slice(0, this.size).sort();
  }
}

/** Nearest-rank percentile (0 < p <= 100) of ascending samples; NaN when there are none. */
export function percentile(ascending: Float64Array, p: number): number {
  if (ascending.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * ascending.length);
  return ascending[Math.min(ascending.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

export function mean(values: Float64Array): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/** Rounds for the report (JSON has no NaN: it becomes null). */
export function round(value: number, digits = 2): number | null {
  if (!Number.isFinite(value)) return null;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
