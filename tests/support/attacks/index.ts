/**
 * The second round of attacks (issue 24), one file per topic; each topic adds its list here.
 */
import type { Attack } from '../attack-types.ts';
import { CALCIUM_ARC_ATTACKS } from './calcium-arcs.ts';
import { DICOM_RECEIVER_ATTACKS } from './dicom-receiver.ts';
import { FILE_ATTACKS } from './files.ts';
import { FRAME_URL_ATTACKS } from './frame-urls.ts';
import { HTTP_ATTACKS } from './http.ts';
import { KEY_FRAME_ATTACKS } from './key-frames.ts';
import { PACS_SEND_ATTACKS } from './pacs-send.ts';
import { PROVISIONAL_CONTOUR_ATTACKS } from './provisional-contours.ts';
import { SESSION_ATTACKS } from './sessions.ts';
import { SSRF_ATTACKS } from './ssrf.ts';
import { STENT_BORDER_ATTACKS } from './stent-borders.ts';
import { STENT_REFERENCE_ATTACKS } from './stent-references.ts';

export const ROUND_TWO_ATTACKS: readonly Attack[] = [
  ...SSRF_ATTACKS,
  ...FILE_ATTACKS,
  ...HTTP_ATTACKS,
  ...SESSION_ATTACKS,
  ...DICOM_RECEIVER_ATTACKS,
  ...KEY_FRAME_ATTACKS,
  ...FRAME_URL_ATTACKS,
  ...PACS_SEND_ATTACKS,
  ...STENT_BORDER_ATTACKS,
  ...STENT_REFERENCE_ATTACKS,
  ...CALCIUM_ARC_ATTACKS,
  ...PROVISIONAL_CONTOUR_ATTACKS,
];
