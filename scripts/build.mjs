// Builds the service into dist/main.mjs, which `npm start` runs with plain node (no loader at run time).
//
// Why: under tsx a loader thread with its own V8 heap, the compiled sources and their source maps stay
// resident for the life of the process; the bundle starts with ~82 MiB less (docs/performance.md). It holds
// src/ only; packages stay external and load from node_modules as they would under tsx.
//
// Invariant: code that finds files relative to itself (migrations, dashboard assets, contracts,
// createRequire) keeps working, because every `import.meta.url` / `import.meta.dirname` in src/ is replaced
// by its own source file's location, not the bundle's.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** @type {import("esbuild").Plugin} */
const sourceRelativeImportMeta = {
  name: "source-relative-import-meta",
  setup(b) {
    b.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      const contents = text
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path)))
        .replaceAll("import.meta.filename", JSON.stringify(args.path));
      return { contents, loader: args.path.endsWith("x") ? "tsx" : "ts" };
    });
  },
};

export async function buildService({ quiet = false } = {}) {
  const started = Date.now();
  const outfile = path.join(ROOT, "dist", "main.mjs");
  await build({
    absWorkingDir: ROOT,
    entryPoints: ["src/main.ts"],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    tsconfig: "tsconfig.json",
    plugins: [sourceRelativeImportMeta],
    logLevel: "warning",
  });
  if (!quiet) console.error(`arbiter: built ${path.relative(ROOT, outfile)} in ${Date.now() - started} ms`);
  return outfile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  buildService().catch((err) => {
    console.error("arbiter: build failed:", err?.message ?? err);
    process.exit(1);
  });
}

/**
 * The command `npm start` runs (package.json's `start` script, after `prestart` built the bundle), as
 * [executable, ...args] with `node` replaced by this process's node: tests and benchmarks start exactly
 * what users start, flags included.
 */
export function startCommand() {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const [bin, ...args] = pkg.scripts.start.trim().split(/\s+/);
  if (bin !== "node") throw new Error(`package.json's start script must begin with node, not ${bin}`);
  return [process.execPath, ...args];
}
