// Our scripts minified by terser at set-up (`make setup`; node is needed there, never to serve),
// each kept in static/vendor/min/ under the hash of its source: companion/web/assets.py serves
// that copy while the file is unchanged, else rjsmin's. rjsmin only drops comments and spaces;
// terser also shortens local names, which takes about 2 KB off a table page's first load.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { minify } from "terser";

const STATIC = "static";
const OUT = join(STATIC, "vendor", "min");

function scripts(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return path === OUT ? [] : scripts(path);
    return entry.name.endsWith(".js") ? [path] : [];
  });
}

mkdirSync(OUT, { recursive: true });
const made = new Set();
for (const file of scripts(STATIC)) {
  const source = readFileSync(file);
  const name = createHash("sha256").update(source).digest("hex").slice(0, 24) + ".js";
  made.add(name);
  if (existsSync(join(OUT, name))) continue;
  const result = await minify(source.toString("utf8"), { ecma: 2020, compress: { passes: 2 }, mangle: true });
  writeFileSync(join(OUT, name), result.code);
}
// The copies of sources that changed since are of no use any more.
for (const name of readdirSync(OUT)) if (!made.has(name)) unlinkSync(join(OUT, name));
