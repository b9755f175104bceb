// The shape of a problem before it becomes a body: its own file so that problem.ts and
// validation-problem.ts both use it without importing each other.

export interface ValidationErrorItem {
  pointer: string;
  message: string;
}

export interface ProblemInit {
  status: number;
  code: string;
  detail: string;
  /** Extension members copied into the body (e.g. `current`, `wanted`, `resets_at`). */
  extras?: Record<string, unknown>;
  errors?: ValidationErrorItem[];
  headers?: Record<string, string>;
  /** A 5xx answered on purpose (read-only mode, a kill switch, shutting down): logged at info, not as a failure. Never sent. */
  deliberate?: true;
  /**
   * A 5xx because something the gateway itself needs is unavailable (replay protection: Redis
   * down, or the memory nonce store full): a failure, not `deliberate`, but a known one whose
   * start is logged once where it is detected, so a stack per refused request would only flood
   * the log. Never sent.
   */
  dependencyDown?: true;
}
