/**
 * Local WordPress sandbox: MariaDB + PHP's built-in server + WordPress core
 * from Debian's `wordpress` .deb, one isolated instance per `<home>/<name>/`.
 */
export { APT_COMMAND, APT_PACKAGES } from './apt.js';
export { envLines, readCredentials } from './credentials.js';
export { restoreSnapshot, type SeedOptions, saveSnapshot, siteReset, siteSeed } from './data.js';
export { clearMailLog, mailLogPath, readMailLog } from './mail.js';
export { packageRoot, resolveInstance } from './paths.js';
export { ensurePrerequisites } from './prerequisites.js';
export { siteDown, siteStatus, siteUp, type UpOptions } from './site.js';
export { DEFAULT_WP, parseWpVersion, SUPPORTED_WP, type WpVersion } from './versions.js';
export type { CapturedMail, SandboxCredentials, SandboxLogger, SandboxOptions, SandboxStatus } from './types.js';
