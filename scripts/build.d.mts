/** Builds src/main.ts into dist/main.mjs (see build.mjs); resolves to the output file's path. */
export function buildService(opts?: { quiet?: boolean }): Promise<string>;
/** package.json's `start` command as [node executable, ...args]. */
export function startCommand(): string[];
