import type { GatewayError } from './llm-gateway.js';

export interface GatewayHealthStatus {
  configured: boolean;
  model: string | null;
  last_success_at: string | null;
  last_error: { at: string; code: string; status: number | null; message: string } | null;
}

/** Remembers the gateway's last success and last error for `/status` (never for chat). */
export class GatewayHealth {
  #lastSuccess: number | null = null;
  #lastError: { at: number; error: GatewayError } | null = null;

  constructor(
    private readonly configured: boolean,
    private readonly model: string,
  ) {}

  success(): void {
    this.#lastSuccess = Date.now();
  }

  failure(error: GatewayError): void {
    this.#lastError = { at: Date.now(), error };
  }

  status(): GatewayHealthStatus {
    const last = this.#lastError;
    return {
      configured: this.configured,
      model: this.configured ? this.model : null,
      last_success_at: this.#lastSuccess === null ? null : new Date(this.#lastSuccess).toISOString(),
      last_error: last
        ? {
            at: new Date(last.at).toISOString(),
            code: last.error.code,
            status: last.error.status,
            message: last.error.message,
          }
        : null,
    };
  }
}
