/**
 * The senders a tenant's DICOM receiver accepts (issue 24): its administrators register the calling
 * AE titles (the console's or PACS's own AE title) allowed to push studies into the tenant, each
 * optionally limited to source addresses. Any other caller is rejected at association, before any
 * data. Shared by the server's validation and the admin's PACS tab.
 *
 * - `GET    /api/{tenant}/pacs/dicom-callers` (administrators): DicomCallerList.
 * - `POST   /api/{tenant}/pacs/dicom-callers` (DicomCallerInput): 201 DicomCaller; 409 when the AE title is registered already.
 * - `PUT    /api/{tenant}/pacs/dicom-callers/{id}` (DicomCallerInput): DicomCaller.
 * - `DELETE /api/{tenant}/pacs/dicom-callers/{id}`: 204.
 */
import { z } from 'zod';

/** PS3.5 6.2: an AE is at most 16 characters of the default repertoire, without backslash or control characters. */
export const MAX_AE_TITLE = 16;
export const MAX_CALLER_DESCRIPTION = 120;
/** Addresses or networks one caller may list. */
export const MAX_CALLER_NETWORKS = 16;

/** Printable ASCII (ISO-IR 6) but the backslash: NUL, control characters and anything beyond ASCII fail here. */
const DEFAULT_REPERTOIRE = /^[\x20-\x5b\x5d-\x7e]*$/;

export const AeTitleSchema = z
  .string({ error: 'an AE title' })
  .refine((value) => DEFAULT_REPERTOIRE.test(value), 'an AE title holds only printable ASCII characters, without backslash')
  // Leading and trailing spaces are padding in DICOM, not part of the title.
  .transform((value) => value.trim())
  .refine((value) => value.length > 0, 'an AE title (not only spaces)')
  .refine((value) => value.length <= MAX_AE_TITLE, `an AE title is at most ${MAX_AE_TITLE} characters`);

/** An IPv4 or IPv6 address, optionally with a prefix length (CIDR); the server checks it parses. */
const NetworkSchema = z
  .string()
  .trim()
  .min(1, 'an address or network')
  .max(49, 'an address or network such as 10.1.2.3 or 10.1.2.0/24')
  .regex(/^[0-9a-fA-F.:]+(\/\d{1,3})?$/, 'an address or network such as 10.1.2.3, 10.1.2.0/24 or fd00::/8');

export const DicomCallerInputSchema = z
  .object({
    aeTitle: AeTitleSchema,
    description: z
      .string()
      .trim()
      .max(MAX_CALLER_DESCRIPTION, `a description of at most ${MAX_CALLER_DESCRIPTION} characters`)
      // NUL, control characters and lone surrogates have no place in a label (and PostgreSQL refuses NUL).
      .refine((value) => ![...value].some((c) => c < ' ' || c === '\u007f') && value.isWellFormed(), 'a description without control characters')
      .default(''),
    /** Empty: the AE title is accepted from any address. */
    networks: z.array(NetworkSchema).max(MAX_CALLER_NETWORKS, `at most ${MAX_CALLER_NETWORKS} addresses`).default([]),
  })
  .strict();
export type DicomCallerInput = z.input<typeof DicomCallerInputSchema>;
export type DicomCallerFields = z.output<typeof DicomCallerInputSchema>;

export const DicomCallerSchema = z.object({
  id: z.uuid(),
  aeTitle: z.string(),
  description: z.string(),
  networks: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DicomCaller = z.infer<typeof DicomCallerSchema>;

export const DicomCallerListSchema = z.object({
  callers: z.array(DicomCallerSchema),
  /** What a console is configured with to push here: null when this server runs no receiver. */
  receiver: z.object({ port: z.number().int(), calledAeTitles: z.array(z.string()) }).nullable(),
});
export type DicomCallerList = z.infer<typeof DicomCallerListSchema>;
