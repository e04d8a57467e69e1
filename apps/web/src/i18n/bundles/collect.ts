export type Bundle = Record<string, Record<string, unknown>>;

/** `{ namespace: resources }` from an eager glob of ./locales/<lang>/<ns>.json. */
export function collect(modules: Record<string, { default: Record<string, unknown> }>): Bundle {
  const out: Bundle = {};
  for (const [path, mod] of Object.entries(modules)) {
    const ns = /\/(\w+)\.json$/.exec(path)?.[1];
    if (ns) out[ns] = mod.default;
  }
  return out;
}
