/**
 * The second round of attacks (issue 24), one file per topic; each topic adds its list here.
 */
import type { Attack } from '../attack-types.ts';
import { DICOM_RECEIVER_ATTACKS } from './dicom-receiver.ts';

export const ROUND_TWO_ATTACKS: readonly Attack[] = [
  ...DICOM_RECEIVER_ATTACKS,
];
