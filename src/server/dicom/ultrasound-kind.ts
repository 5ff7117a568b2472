/**
 * Is an ultrasound series an IVUS pullback? Read from its header (issue 26): an obstetric,
 * echocardiography or vascular loop is stored with the same SOP class as an IVUS pullback, and
 * analysing one as IVUS puts a lumen, an MLA and a report on a fetal scan.
 *
 * A series is IVUS when its header says so in any of the ways consoles do: modality IVUS, one of
 * the IVUS acquisition attributes (0018,3100–3105), an IVUS console's manufacturer or model, or a
 * series/study description naming IVUS. Anything else of SOP class ultrasound is "other
 * ultrasound": imported only when the uploader confirms, and never analysed.
 *
 * The pixels then have their say (withPixelEvidence, from ultrasound-field-of-view.ts), under a
 * conservative rule: pixels can take IVUS away, never give it. A file is analysed as IVUS only when
 * its header says IVUS and its frames do not contradict it; when they disagree the uploader is
 * asked (409 not_ivus), and a confirmed file is kept as other ultrasound, to view only:
 * - header IVUS, frames a fan (echo, obstetric probe): an IVUS catheter never makes a fan.
 * - header IVUS only by a name (console, model, description), frames a rectangle (linear vascular
 *   probe): a name can be wrong. The IVUS fields (modality IVUS, 0018,31xx) are not overruled by
 *   a rectangle, as IVUS frames stored in polar form fill a rectangle.
 * - header not IVUS, frames an IVUS image (centred circle with a catheter ring-down): still other
 *   ultrasound, and the message says the frames look like IVUS so the uploader can export it again
 *   from the IVUS console with its IVUS fields. Pixels alone never make a file IVUS.
 * Frames that show nothing clear (all black, noise, too large to inspect) leave the header's word.
 */
import type { DataSet } from 'dicom-parser';
import { str } from './attributes.ts';
import type { FieldOfView } from './ultrasound-field-of-view.ts';

export type UltrasoundKind = 'ivus' | 'other-ultrasound';

export interface UltrasoundClassification {
  kind: UltrasoundKind;
  /** A sentence fragment saying what decided it: "modality IVUS", "modality US from GE Healthcare Voluson E8, with no IVUS acquisition fields". */
  reason: string;
  /** What in the header decided it: IVUS fields (modality, 0018,31xx), only an IVUS name (console, model, description), or nothing of IVUS. */
  evidence: 'ivus-fields' | 'ivus-name' | 'none';
}

/** IVUS Acquisition, Pullback Rate, Gated Rate, Pullback Start and Stop Frame Number, Frame Numbers. */
const IVUS_ATTRIBUTES = ['x00183100', 'x00183101', 'x00183102', 'x00183103', 'x00183104', 'x00183105'] as const;

/**
 * IVUS consoles and catheters, as they write Manufacturer and Manufacturer's Model Name: Philips
 * (Volcano) s5/CORE/IntraSight with Eagle Eye and Revolution catheters, Boston Scientific iLab and
 * AVVIGO with OptiCross, Terumo VISIWAVE and AltaView, ACIST HDi with Kodama, Infraredx Makoto and
 * Dualpro, Conavi Hyperion, and the generic names. Matched as whole words, case-insensitively.
 */
const IVUS_MAKERS = /\b(volcano|ivus|intravascular|eagle ?eye|revolution|refinity|intrasight|ilab|avvigo|opticross|visiwave|altaview|acist|kodama|infraredx|makoto|dualpro|hyperion|conavi)\b/i;
const IVUS_DESCRIPTION = /\b(ivus|intravascular ultrasound|intra-vascular ultrasound)\b/i;

/** The header's word on an ultrasound series (SOP class Ultrasound (Multi-frame) Image). */
export function classifyUltrasound(dataSet: DataSet, modality: string): UltrasoundClassification {
  if (modality === 'IVUS') return { kind: 'ivus', reason: 'modality IVUS', evidence: 'ivus-fields' };
  if (IVUS_ATTRIBUTES.some((tag) => dataSet.elements[tag] !== undefined)) return { kind: 'ivus', reason: 'IVUS acquisition attributes (0018,31xx)', evidence: 'ivus-fields' };
  const manufacturer = str(dataSet, 'x00080070');
  const model = str(dataSet, 'x00081090');
  const maker = [manufacturer, model].filter(Boolean).join(' ');
  if (IVUS_MAKERS.test(maker)) return { kind: 'ivus', reason: `an IVUS console (${maker})`, evidence: 'ivus-name' };
  const description = [str(dataSet, 'x0008103e'), str(dataSet, 'x00081030')].filter(Boolean).join(' / ');
  if (IVUS_DESCRIPTION.test(description)) return { kind: 'ivus', reason: `described as ${description}`, evidence: 'ivus-name' };
  const from = maker ? ` from ${maker}` : '';
  const part = str(dataSet, 'x00180015');
  const body = part ? `, body part ${part}` : '';
  return { kind: 'other-ultrasound', reason: `modality ${modality || '(none)'}${from}${body}, with no IVUS acquisition attributes`, evidence: 'none' };
}

const FAN = 'its frames show a fan-shaped field of view, as an echocardiography or obstetric probe makes, never an IVUS catheter';
const RECTANGLE = 'its frames show a rectangular field of view, as a linear vascular probe makes, not the circular image of an IVUS catheter';
const LOOKS_IVUS =
  'its frames look like an IVUS pullback (a centred circular image with a catheter ring-down), but only a header that says IVUS makes a file one: export it again from the IVUS console with its IVUS fields';

/** The header's classification with the frames' word on it (the rule is in the module comment). */
export function withPixelEvidence(header: UltrasoundClassification, view: FieldOfView): UltrasoundClassification {
  if (header.kind === 'ivus') {
    if (view.shape === 'fan') return { kind: 'other-ultrasound', reason: `its header says IVUS (${header.reason}) but ${FAN}`, evidence: header.evidence };
    if (view.shape === 'rectangle' && header.evidence === 'ivus-name') {
      return { kind: 'other-ultrasound', reason: `its header names IVUS only by ${header.reason} and ${RECTANGLE}`, evidence: header.evidence };
    }
    return header;
  }
  if (view.shape === 'circle' && view.ringDown) return { ...header, reason: `${header.reason}; ${LOOKS_IVUS}` };
  if (view.shape === 'fan') return { ...header, reason: `${header.reason}; ${FAN}` };
  if (view.shape === 'rectangle') return { ...header, reason: `${header.reason}; ${RECTANGLE}` };
  return header;
}
