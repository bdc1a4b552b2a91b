/**
 * A strict reader of the Prometheus text exposition format 0.0.4 for tests, written from the format's
 * description (prometheus.io/docs/instrumenting/exposition_formats), not from prom-client: every
 * line is a comment, a `# HELP`/`# TYPE`, or `name{label="value",…} value`, and anything else
 * throws. A histogram appears as its `_bucket`, `_sum` and `_count` samples.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** `# TYPE` of each family. */
  types: Map<string, string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;

function parseValue(raw: string): number {
  if (raw === '+Inf') return Infinity;
  if (raw === '-Inf') return -Infinity;
  // Prometheus reads a value with Go's ParseFloat, which takes NaN in any case; prom-client writes
  // `Nan` (the event-loop lag of a scrape that came before the monitor's first sample, say).
  if (/^nan$/i.test(raw)) return NaN;
  const v = Number(raw);
  if (Number.isNaN(v)) throw new Error(`not a sample value: ${raw}`);
  return v;
}

function parseLabels(raw: string | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  if (!raw) return labels;
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < raw.length) {
    const at = LABEL.lastIndex;
    const m = LABEL.exec(raw);
    if (!m || m.index !== at) throw new Error(`bad labels: {${raw}}`);
    labels[m[1]!] = m[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    if (m[3] === '') break;
  }
  return labels;
}

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (type) types.set(type[1]!, type[2]!);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    samples.push({ name: m[1]!, labels: parseLabels(m[2]), value: parseValue(m[3]!) });
  }
  return { samples, types };
}

/** The samples named `name` whose labels include every one of `labels`. */
export function samples(e: Exposition, name: string, labels: Record<string, string> = {}): Sample[] {
  return e.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The value of the single sample `name` with these labels; throws when there is none or several. */
export function valueOf(e: Exposition, name: string, labels: Record<string, string>): number {
  const found = samples(e, name, labels);
  if (found.length !== 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} samples`);
  return found[0]!.value;
}
