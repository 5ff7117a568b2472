/** What the DICOM receiver (dimse-receiver.ts) accepts: verification, and the storage SOP classes below. */

export const VERIFICATION_SOP_CLASS = '1.2.840.10008.1.1';
const STORAGE = '1.2.840.10008.5.1.4.1.1.';
/**
 * The storage SOP classes taken (suffixes of 1.2.840.10008.5.1.4.1.1.): what an IVUS console, the
 * angiography system or a PACS pushing a whole study sends. Those the import does not read (SR, PDF,
 * presentation states) are taken too, so a study push is not refused half-way; the import skips them.
 */
export const RECEIVED_SOP_CLASSES: ReadonlySet<string> = new Set(
  [
    // Ultrasound: multi-frame (IVUS), single frame, enhanced volume, and the retired ones older consoles send.
    ...['3.1', '6.1', '6.2', '3', '6'],
    // Intravascular OCT (for presentation, for processing).
    ...['14.1', '14.2'],
    // X-ray angiography and fluoroscopy, plain and enhanced.
    ...['12.1', '12.1.1', '12.2', '12.2.1'],
    // Secondary capture, single and multi-frame (bit, byte, word, true colour).
    ...['7', '7.1', '7.2', '7.3', '7.4'],
    // Grayscale presentation state; SR (basic text, enhanced, comprehensive, 3D, key objects, dose); PDF; raw data.
    ...['11.1', '88.11', '88.22', '88.33', '88.34', '88.59', '88.67', '88.76', '104.1', '66'],
  ].map((suffix) => STORAGE + suffix),
);
