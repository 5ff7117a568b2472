/**
 * Is an ultrasound series an IVUS pullback? Read from its header (issue 26): an obstetric,
 * echocardiography or vascular loop is stored with the same SOP class as an IVUS pullback, and
 * analysing one as IVUS puts a lumen, an MLA and a report on a fetal scan.
 *
 * A series is IVUS when its header says so in any of the ways consoles do: modality IVUS, one of
 * the IVUS acquisition attributes (0018,3100–3105), an IVUS console's manufacturer or model, or a
 * series/study description naming IVUS. Anything else of SOP class ultrasound is "other
 * ultrasound": imported only when the uploader confirms, and never analysed.
 */
import type { DataSet } from 'dicom-parser';
import { str } from './attributes.ts';

export type UltrasoundKind = 'ivus' | 'other-ultrasound';

export interface UltrasoundClassification {
  kind: UltrasoundKind;
  /** A sentence fragment saying what decided it: "modality IVUS", "modality US from GE Healthcare Voluson E8, with no IVUS acquisition fields". */
  reason: string;
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
  if (modality === 'IVUS') return { kind: 'ivus', reason: 'modality IVUS' };
  if (IVUS_ATTRIBUTES.some((tag) => dataSet.elements[tag] !== undefined)) return { kind: 'ivus', reason: 'IVUS acquisition attributes (0018,31xx)' };
  const manufacturer = str(dataSet, 'x00080070');
  const model = str(dataSet, 'x00081090');
  const maker = [manufacturer, model].filter(Boolean).join(' ');
  if (IVUS_MAKERS.test(maker)) return { kind: 'ivus', reason: `an IVUS console (${maker})` };
  const description = [str(dataSet, 'x0008103e'), str(dataSet, 'x00081030')].filter(Boolean).join(' / ');
  if (IVUS_DESCRIPTION.test(description)) return { kind: 'ivus', reason: `described as ${description}` };
  const from = maker ? ` from ${maker}` : '';
  const part = str(dataSet, 'x00180015');
  const body = part ? `, body part ${part}` : '';
  return { kind: 'other-ultrasound', reason: `modality ${modality || '(none)'}${from}${body}, with no IVUS acquisition attributes` };
}
