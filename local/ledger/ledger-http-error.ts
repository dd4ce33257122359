/** Stable codes clients may branch on; the message beside each says what to fix. */
export type LedgerErrorCode =
  | 'missing_idempotency_key'
  | 'invalid_idempotency_key'
  | 'bad_request'
  | 'invalid_json'
  | 'invalid_body'
  | 'invalid_query'
  | 'invalid_fault'
  | 'entry_not_found'
  | 'route_not_found'
  | 'idempotency_key_reused'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'injected_failure'
  | 'service_unavailable'
  | 'internal_error';

/** The JSON body of every error answer. */
export interface LedgerErrorBody {
  error: { code: LedgerErrorCode; message: string };
}

/** An error that becomes an HTTP answer as is; anything else thrown becomes a 500 `internal_error`. */
export class LedgerHttpError extends Error {
  override readonly name = 'LedgerHttpError';
  readonly status: number;
  readonly code: LedgerErrorCode;

  constructor(input: { status: number; code: LedgerErrorCode; message: string }) {
    super(input.message);
    this.status = input.status;
    this.code = input.code;
  }

  toBody(): LedgerErrorBody {
    return { error: { code: this.code, message: this.message } };
  }
}
