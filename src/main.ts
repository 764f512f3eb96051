import { ConfigError, loadConfig } from "./config";
import { createRuntime } from "./deps";
import { DataDirLockedError } from "./db/datadir-lock";
import { AnvilPortInUseError } from "./sandbox/anvil";
import { listen } from "./server";

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  let runtime;
  try {
    runtime = await createRuntime(config);
  } catch (e) {
    if (e instanceof DataDirLockedError) {
      console.error(`arbiter: ${e.message}`);
      process.exit(3);
    }
    if (e instanceof AnvilPortInUseError) {
      console.error(
        `arbiter: the sandbox chain (anvil) cannot listen on ${e.host}:${e.port}: another process already uses that port ` +
          `(another Arbiter or anvil?). Stop it, or set SANDBOX_RPC_PORT to a free port, e.g. SANDBOX_RPC_PORT=${e.port + 1} npm start ` +
          `(0 picks a free port).`,
      );
      process.exit(4);
    }
    throw e;
  }
  const { port, stop } = await listen(runtime, { host: config.HOST, port: config.PORT });
  runtime.logger.info(
    { url: config.PUBLIC_URL, port, database: runtime.database.kind, judge: config.JUDGE_PROVIDER, dataDir: config.DATA_DIR },
    `Arbiter listening on http://${config.HOST}:${port}`,
  );
  let signalled = false;
  for (const sig of ["SIGTERM", "SIGINT"] as const) {
    process.on(sig, () => {
      if (signalled) return;
      signalled = true;
      runtime.logger.info({ signal: sig }, "shutting down: draining requests");
      stop()
        .then(() => process.exit(0))
        .catch((err) => {
          runtime.logger.error({ err }, "shutdown failed");
          process.exit(1);
        });
    });
  }
}

main().catch((err) => {
  console.error("arbiter: failed to start:", err instanceof Error ? err.stack : err);
  process.exit(1);
});
