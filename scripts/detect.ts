/**
 * `npm run -s detect -- --spacing-mm MM [--centre X,Y] FILE...`: lumen and vessel borders of PNG
 * frames, one JSON line per file on stdout:
 *
 *   {"file": "...", "lumen": [[x, y], ...], "vessel": [[x, y], ...], "lumenAreaMm2": n,
 *    "vesselAreaMm2": n, "plaqueBurden": n, "confidence": n}
 *
 * Polygons are closed (the last vertex joins the first, it is not repeated), one vertex per ray, in
 * image pixels (x right, y down, origin at the top-left pixel's corner). Areas are the polygons'
 * shoelace areas times the spacing squared; plaqueBurden = (vessel − lumen) / vessel, a fraction.
 *
 * Frames: 8-bit or 16-bit (scaled to 8 bits), grayscale, RGB(A) or palette PNGs of any size; colour
 * becomes luma (Rec. 601: 0.299 R + 0.587 G + 0.114 B), composited over black by its alpha. The
 * files are taken in the order given: each one's detection and pixels are offered to the next, for
 * continuity and the temporal speckle cue, as long as consecutive frames have the same size (each
 * size gets its own detector). The detector uses them only when the two frames are temporal
 * neighbours (frame-neighbours.ts), so gated exports, shuffled files, drops and stitched runs give
 * each frame the borders it gets alone. The catheter sits at the image centre unless --centre X,Y.
 *
 * Errors go to stderr. A bad command line stops before any output; a file that cannot be read or
 * decoded is skipped (no line for it, and the next frame starts a new run) and the exit code is 2.
 */
import fs from 'node:fs';
import { PNG } from 'pngjs';
import { shoelaceArea } from '../src/domain/annotations/measurements.ts';
import type { BorderDetection, BorderDetector } from '../src/domain/contours/border-detection.ts';
import { createBorderDetector } from '../src/domain/contours/border-detector.ts';

/** The 8 bytes every PNG file starts with. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const USAGE = 'usage: npm run -s detect -- --spacing-mm MM [--centre X,Y] FILE...';

interface Arguments {
  readonly spacingMm: number;
  readonly centre: { readonly x: number; readonly y: number } | null;
  readonly files: string[];
}

class UsageError extends Error {}

function parseArguments(argv: readonly string[]): Arguments {
  let spacing: string | null = null;
  let centre: string | null = null;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, null];
    if (name === '--spacing-mm' || name === '--centre') {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      if (name === '--spacing-mm') spacing = value;
      else centre = value;
    } else if (arg === '--') {
      files.push(...argv.slice(i + 1));
      break;
    } else if (arg.startsWith('--')) {
      throw new UsageError(`unknown option ${arg}`);
    } else {
      files.push(arg);
    }
  }
  if (spacing === null) throw new UsageError('--spacing-mm is required');
  const spacingMm = Number(spacing);
  if (spacing.trim() === '' || !Number.isFinite(spacingMm) || spacingMm <= 0) throw new UsageError(`--spacing-mm must be a positive number of mm per pixel, got "${spacing}"`);
  let parsedCentre: Arguments['centre'] = null;
  if (centre !== null) {
    const parts = centre.split(',');
    const [x, y] = parts.map((p) => (p.trim() === '' ? NaN : Number(p)));
    if (parts.length !== 2 || !Number.isFinite(x) || !Number.isFinite(y)) throw new UsageError(`--centre must be X,Y in pixels, got "${centre}"`);
    parsedCentre = { x: x!, y: y! };
  }
  if (files.length === 0) throw new UsageError('no PNG files given');
  return { spacingMm, centre: parsedCentre, files };
}

/** The frame as 8-bit gray, row-major. */
function readFrame(file: string): { width: number; height: number; pixels: Uint8Array } {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : `cannot read it (${code ?? String(error)})`, { cause: error });
  }
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG file (no PNG signature)');
  let png: PNG;
  try {
    png = PNG.sync.read(bytes);
  } catch (error) {
    throw new Error(`not a readable PNG (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  const { width, height, data } = png;
  const pixels = new Uint8Array(width * height);
  for (let p = 0, q = 0; p < pixels.length; p++, q += 4) {
    const luma = 0.299 * data[q]! + 0.587 * data[q + 1]! + 0.114 * data[q + 2]!;
    pixels[p] = Math.round((luma * data[q + 3]!) / 255);
  }
  return { width, height, pixels };
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

function jsonLine(file: string, detection: BorderDetection, spacingMm: number): string {
  const points = (polygon: BorderDetection['lumen']['polygon']): string => `[${polygon.map((p) => `[${round(p.x, 2)}, ${round(p.y, 2)}]`).join(', ')}]`;
  const lumenAreaMm2 = shoelaceArea(detection.lumen.polygon) * spacingMm * spacingMm;
  const vesselAreaMm2 = shoelaceArea(detection.vessel.polygon) * spacingMm * spacingMm;
  const plaqueBurden = vesselAreaMm2 > 0 ? (vesselAreaMm2 - lumenAreaMm2) / vesselAreaMm2 : 0;
  return (
    `{"file": ${JSON.stringify(file)}, "lumen": ${points(detection.lumen.polygon)}, "vessel": ${points(detection.vessel.polygon)}, ` +
    `"lumenAreaMm2": ${round(lumenAreaMm2, 4)}, "vesselAreaMm2": ${round(vesselAreaMm2, 4)}, "plaqueBurden": ${round(plaqueBurden, 4)}, "confidence": ${round(detection.confidence, 3)}}`
  );
}

function main(argv: readonly string[]): number {
  let args: Arguments;
  try {
    args = parseArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`detect: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  const detectors = new Map<string, BorderDetector>();
  /** The next file's pixels if it is a readable frame of this size, else null (it gets its own message in its turn). */
  const nextFramePixels = (next: string | undefined, width: number, height: number): Uint8Array | null => {
    if (next === undefined) return null;
    try {
      const frame = readFrame(next);
      return frame.width === width && frame.height === height ? frame.pixels : null;
    } catch {
      return null;
    }
  };
  let exitCode = 0;
  // The run of consecutive same-size frames so far: the last detection and its pixels.
  let previous: { size: string; detection: BorderDetection; pixels: Uint8Array } | null = null;
  for (const [index, file] of args.files.entries()) {
    try {
      const { width, height, pixels } = readFrame(file);
      const size = `${width}x${height}`;
      let detector = detectors.get(size);
      if (detector === undefined) {
        const centre = args.centre ?? { x: width / 2, y: height / 2 };
        if (centre.x < 0 || centre.x > width || centre.y < 0 || centre.y > height) throw new Error(`--centre ${centre.x},${centre.y} lies outside the ${size} frame`);
        try {
          detector = createBorderDetector({ frameWidth: width, frameHeight: height, pixelSpacingMm: args.spacingMm, centreX: centre.x, centreY: centre.y });
        } catch (error) {
          throw new Error(`cannot detect borders on a ${size} frame at ${args.spacingMm} mm/px: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        }
        detectors.set(size, detector);
      }
      const run = previous !== null && previous.size === size ? previous : null;
      // A run's first frame takes its temporal cue from the next file, when that is a frame of the same size.
      const detection = detector.detect(pixels, run?.detection ?? null, run?.pixels ?? nextFramePixels(args.files[index + 1], width, height));
      process.stdout.write(`${jsonLine(file, detection, args.spacingMm)}\n`);
      previous = { size, detection, pixels };
    } catch (error) {
      process.stderr.write(`detect: ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
      exitCode = 2;
      previous = null;
    }
  }
  return exitCode;
}

process.exitCode = main(process.argv.slice(2));
