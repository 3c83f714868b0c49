import { readFileSync } from 'node:fs';
import { FieldError, UserError } from '../../../common/errors.ts';

/** How the farm reaches its Redis: what ioredis takes, and the URL as printed (no password). */
export interface FarmConnection {
  readonly host: string;
  readonly port: number;
  readonly db?: number;
  readonly username?: string;
  readonly password?: string;
  readonly tls?: {
    readonly ca?: string;
    readonly cert?: string;
    readonly key?: string;
    readonly servername?: string;
    readonly rejectUnauthorized?: boolean;
  };
  /** The URL with its password masked, for messages and logs. */
  readonly shown: string;
}

/** TLS query parameters of a `rediss://` URL: PEM files read at start, and the checks. */
const TLS_FILE_PARAMETERS = ['ca', 'cert', 'key'] as const;

function readPem(url: string, parameter: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UserError(
      `--farm ${url}: cannot read ${parameter} file ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

/**
 * A farm URL, `redis://[user[:password]@]host[:port][/db]` or `rediss://…` for TLS, whose query may
 * name PEM files (`ca`, `cert`, `key`), a `servername`, and `rejectUnauthorized=false`. The
 * password and ACL user go to Redis's AUTH; a malformed URL is a one-line error.
 */
export function parseFarmUrl(text: string): FarmConnection {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UserError(`--farm '${text}' is not a URL; give redis://host:port or rediss://host:port`);
  }
  const secure = url.protocol === 'rediss:';
  if (!secure && url.protocol !== 'redis:')
    throw new UserError(`--farm '${text}': the scheme must be redis:// or rediss:// (TLS)`);
  const shown = url.password === '' ? text : text.replace(`:${url.password}@`, ':***@');
  const port = url.port === '' ? 6379 : Number(url.port);
  const dbText = url.pathname.replace(/^\//, '');
  if (dbText !== '' && !/^\d+$/.test(dbText))
    throw new FieldError('farm', `${shown}: the database '${dbText}' is not a number`);
  const known = new Set<string>([...TLS_FILE_PARAMETERS, 'servername', 'rejectUnauthorized']);
  for (const name of url.searchParams.keys())
    if (!known.has(name) || !secure)
      throw new UserError(
        `--farm ${shown}: unknown parameter '${name}'${secure ? '' : ' (TLS parameters need rediss://)'}; known: ${[...known].join(', ')}`,
      );
  const tls = secure
    ? {
        ...Object.fromEntries(
          TLS_FILE_PARAMETERS.flatMap((name) => {
            const file = url.searchParams.get(name);
            return file === null ? [] : [[name, readPem(shown, name, file)]];
          }),
        ),
        ...(url.searchParams.has('servername') ? { servername: url.searchParams.get('servername')! } : {}),
        ...(url.searchParams.get('rejectUnauthorized') === 'false' ? { rejectUnauthorized: false } : {}),
      }
    : undefined;
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    ...(dbText === '' ? {} : { db: Number(dbText) }),
    ...(url.username === '' ? {} : { username: decodeURIComponent(url.username) }),
    ...(url.password === '' ? {} : { password: decodeURIComponent(url.password) }),
    ...(tls ? { tls } : {}),
    shown,
  };
}

/** The ioredis options of a farm connection (everything but the printed URL). */
export function redisOptions(connection: FarmConnection): Omit<FarmConnection, 'shown'> {
  const { shown: _shown, ...options } = connection;
  return options;
}
