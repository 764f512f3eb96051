import { buildService } from "../scripts/build.mjs";

/** Process-level tests start what `npm start` starts: the bundle built from src/ (scripts/build.mjs), built once per run. */
export default async function setup() {
  await buildService({ quiet: true });
}
