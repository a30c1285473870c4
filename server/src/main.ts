import pino from 'pino';
import { ConfigError, loadConfig } from './config';
import { DataDirInUseError } from './db/data-dir-lock';
import { type Role, startRuntime } from './runtime';

const ROLES: Role[] = ['all', 'api', 'worker', 'migrate'];

/** `node server/dist/main.js [all|api|worker|migrate]` — see README "Roles". */
async function main(): Promise<void> {
  const role = (process.argv[2] ?? 'all') as Role;
  if (!ROLES.includes(role)) {
    console.error(`Papel desconhecido "${role}". Use um de: ${ROLES.join(', ')}.`);
    process.exit(2);
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = pino({ level: config.LOG_LEVEL, base: { role } });
  // The signals are handled from the start: the server answers /readyz as soon as it listens, a moment before
  // startRuntime returns, and a SIGTERM in that moment killed the process with no exit code. A signal during the
  // start-up stops the runtime once it has started.
  const starting = startRuntime(config, role, logger);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const runtime = await starting.catch(() => null);
    await runtime?.stop();
    process.exit(0);
  };
  if (role !== 'migrate') {
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
    process.on('SIGINT', () => void shutdown('SIGINT'));
  }
  let runtime: Awaited<typeof starting>;
  try {
    runtime = await starting;
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      console.error(error.message);
      process.exit(1);
    }
    logger.fatal({ err: error }, 'start-up failed');
    process.exit(1);
  }
  if (role === 'migrate') await runtime.stop();
}

void main();
