/**
 * Reads the upload form from a streamed multipart request: the text fields,
 * validated against UploadFieldsSchema, then the file, which must be the last part (as in S3's
 * POST uploads): the file streams to the store as it arrives, and by then the record it belongs
 * to must be known.
 */
import type { Multipart } from '@fastify/multipart';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyRequest } from 'fastify';
import { BadRequest, UnsupportedMediaType } from '../../errors.js';
import { describeValidationError } from '../../http/validation.js';
import { type UploadFields, UploadFieldsSchema } from './schemas.js';
import type { UploadFile } from './upload-stream.js';

// ajv-formats is CommonJS; its `default` property is the plugin under both TS and Node's ESM loader.
const addFormats = addFormatsModule.default;
const ajv = new Ajv({ allErrors: false, strict: false });
addFormats(ajv);
const validateFields = ajv.compile<UploadFields>(UploadFieldsSchema);

/** Limits of the text parts; the file's own limit is IMAGE_MAX_BYTES. */
export const FORM_LIMITS = { fieldSize: 10_000, fields: 20, parts: 30 };

export interface UploadForm {
  fields: UploadFields;
  file: UploadFile;
  /** After the file was consumed: nothing may follow it. */
  assertEnd(): Promise<void>;
}

export async function readUploadForm(request: FastifyRequest, maxBytes: number): Promise<UploadForm> {
  if (!request.isMultipart()) {
    throw new UnsupportedMediaType('unsupported content type: send multipart/form-data');
  }
  const iterator = request.parts({ limits: { ...FORM_LIMITS, fileSize: maxBytes } })[Symbol.asyncIterator]();
  const parts = { next: () => iterator.next().catch((error: unknown) => Promise.reject(malformed(error))) };
  const raw: Record<string, string> = {};
  for (;;) {
    const next = await parts.next();
    if (next.done) {
      check(raw);
      throw new BadRequest('file: is required', { field: 'file', in: 'body' });
    }
    const part: Multipart = next.value;
    if (part.type === 'field') {
      const name = part.fieldname;
      if (Object.hasOwn(raw, name)) throw new BadRequest(`${name}: given more than once`, { field: name });
      if (typeof part.value !== 'string' || part.valueTruncated) {
        throw new BadRequest(`${name}: must be text of at most ${FORM_LIMITS.fieldSize} bytes`, {
          field: name,
        });
      }
      raw[name] = part.value;
      continue;
    }
    if (part.fieldname !== 'file') {
      part.file.destroy();
      throw new BadRequest(`${part.fieldname}: is not a known field (the image goes in "file")`, {
        field: part.fieldname,
        in: 'body',
      });
    }
    let fields: UploadFields;
    try {
      fields = check(raw);
    } catch (error) {
      part.file.destroy();
      throw error;
    }
    return {
      fields,
      file: part.file,
      async assertEnd() {
        const rest = await parts.next();
        if (!rest.done) {
          const name = rest.value.fieldname;
          if (rest.value.type === 'file') rest.value.file.destroy();
          throw new BadRequest(`${name}: the file must be the last part of the form`, { field: name });
        }
      },
    };
  }
}

/**
 * The parser's own complaints (no boundary, a truncated body, a broken part header) carry no
 * status: they are the client's malformed form, a 400. Limits keep their 413.
 */
export function malformed(error: unknown): unknown {
  if (typeof (error as { statusCode?: unknown }).statusCode === 'number') return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new BadRequest(
    `body: not a well-formed multipart form (${reason})`,
    { in: 'body' },
    { cause: error },
  );
}

/** Validates the text fields; empty optional fields count as absent. */
function check(raw: Record<string, string>): UploadFields {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const optional = !(UploadFieldsSchema.required as readonly string[] | undefined)?.includes(name);
    if (!(optional && value === '')) fields[name] = value;
  }
  if (!validateFields(fields)) {
    const { message, field, in: where } = describeValidationError(validateFields.errors ?? [], 'body');
    throw new BadRequest(message, { ...(field ? { field } : {}), in: where });
  }
  return fields;
}
