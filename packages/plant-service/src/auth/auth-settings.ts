/**
 * The part of the service configuration the auth modules read. Auth depends on this slice, not on
 * the whole configuration, so the configuration module may build on auth's own env schema.
 */
import type { AuthConfig } from './auth-config.js';

export const WRITE_ACCESS = ['any-user', 'groups', 'admins'] as const;
export type WriteAccess = (typeof WRITE_ACCESS)[number];

export interface AuthSettings {
  /** Who may write: any signed-in user, users with the editor role, or admins only. */
  readonly writeAccess: WriteAccess;
  readonly sessionIdleMs: number;
  readonly sessionMaxMs: number;
  readonly tokenDefaultMs: number;
  readonly tokenMaxMs: number;
  /**
   * Roles (admin, editor, any write) count only this long after the provider last confirmed them
   * at a sign-in: then sessions end and tokens act as a reader's until the user signs in again.
   * 0: roles never lapse.
   */
  readonly roleRefreshMs: number;
  readonly auth: AuthConfig;
}
