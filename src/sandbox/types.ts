/** Progress sink. Lines are human-readable and never contain secrets. */
export type SandboxLogger = (line: string) => void;

export interface SandboxOptions {
  /** Root of all sandbox instances. Default: env CMS_SANDBOX_HOME, else $XDG_DATA_HOME/cms-admin/sandbox (paths.ts sandboxHome). */
  home?: string;
  /** Instance name; each instance lives in `<home>/<name>/`. Default: env CMS_SANDBOX_NAME, else `site`. */
  name?: string;
  /** HTTP port of PHP's built-in server. Default: env CMS_SANDBOX_PORT or 8888. */
  port?: number;
  /** Progress lines (default: prefixed lines on stderr). */
  log?: SandboxLogger;
  /** WordPress branch for a new instance: 6.1, 6.8 or 7.1. Default: env CMS_SANDBOX_WP, else the newest. */
  wp?: string;
  /** native (PHP + MariaDB), playground (WordPress Playground's CLI) or auto. Default: env CMS_SANDBOX_BACKEND, else auto. */
  backend?: string;
  /** A new instance becomes a subdirectory multisite network with three sites (docs/multisite.md). */
  multisite?: boolean;
}

/** One site of a sandbox network: `slug` is '' for the main site. */
export interface NetworkSite {
  slug: string;
  id: number;
  url: string;
}

export interface SandboxCredentials {
  url: string;
  username: string;
  appPassword: string;
  adminPassword: string;
  /** On a network instance: its sites (the admin's application password works on each). */
  network?: { sites: NetworkSite[] };
}

export interface SandboxStatus {
  running: boolean;
  url: string;
  port: number;
  dir: string;
  /** The instance's name and the folder every instance lives in (paths.ts sandboxHome). */
  name: string;
  home: string;
  installed: boolean;
  seeded: boolean;
  /** WordPress version of the instance ("7.1.4"), once its files exist. */
  wordpress?: string;
  backend: 'native' | 'playground';
  /** True for a multisite network instance. */
  network?: boolean;
}

/** Persisted in `<instance>/state.json` (no secrets). */
export interface SandboxState {
  port?: number;
  installed?: boolean;
  seeded?: boolean;
  /** WordPress version the instance runs ("7.1.4"). */
  wordpress?: string;
  backend?: 'native' | 'playground';
  /** The instance is a subdirectory multisite network (its port is pinned: it is in every site's URL). */
  network?: boolean;
}

/** One captured `wp_mail()` call, as written by the sandbox mu-plugin. */
export interface CapturedMail {
  to: string[];
  subject: string;
  message: string;
  headers: string[];
  time: string;
}
