/**
 * Small ultrasound loops of the kinds an IVUS product is handed by mistake, drawn here and encoded
 * by the real DICOM tools (GDCM and dcmtk, installed by .ci/run), as consoles write them:
 * - echo: a 90° sector from an apex at the top (phased array, echocardiography);
 * - obstetric: a convex fan (curved probe), its top an arc;
 * - vascular: a rectangle (linear probe), a dark vessel across it;
 * - ivus: a circle centred in the frame, dark corners, a bright catheter ring-down at the centre
 *   that stays put while the lumen around it changes from frame to frame.
 * The frames are drawn in colour (RGB, a Doppler-red patch on the probes' loops) and written by
 * gdcmimg as an Ultrasound Multi-frame Image, given a console's header with dcmodify, and
 * compressed by dcmcjpeg to JPEG baseline in YBR_FULL_422 (GE, Philips) or by gdcmconv to lossy
 * JPEG in grey.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type LoopKind = 'echo' | 'obstetric' | 'vascular' | 'ivus';

export const LOOP_COLUMNS = 160;
export const LOOP_ROWS = 120;
export const LOOP_FRAMES = 6;

const TOOLS = ['gdcmimg', 'gdcmconv', 'dcmodify', 'dcmcjpeg'] as const;

function hasTool(tool: string): boolean {
  try {
    execFileSync(tool, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The DICOM tools missing on this machine (the tests that need them are skipped, saying so). */
export const missingDicomTools: string[] = TOOLS.filter((tool) => !hasTool(tool));

/** Deterministic speckle in 0..255 (ultrasound texture), from a small integer hash. */
function speckle(frame: number, x: number, y: number): number {
  let h = (x * 374761393 + y * 668265263 + frame * 2147483647) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) & 255;
}

const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));

/** Gray of one pixel of a loop of `kind` (0 outside its field of view). */
export function loopGray(kind: LoopKind, frame: number, x: number, y: number): number {
  const tissue = 50 + (speckle(frame, x, y) * 110) / 255;
  if (kind === 'echo') {
    const [dx, dy] = [x - 80, y - 4];
    if (dy < 0 || Math.hypot(dx, dy) > 112 || Math.abs(dx) > dy) return 0;
    // A heart chamber that beats.
    return Math.hypot(dx, dy - 60) < 18 + 4 * Math.sin(frame) ? 15 : tissue;
  }
  if (kind === 'obstetric') {
    const [dx, dy] = [x - 80, y + 50];
    const r = Math.hypot(dx, dy);
    if (r < 60 || r > 175 || Math.abs(dx) > dy * 0.7) return 0;
    return Math.hypot(dx, y - 70) < 22 ? 30 + frame : tissue;
  }
  if (kind === 'vascular') {
    if (x < 16 || x > 143 || y < 8 || y > 111) return 0;
    return Math.abs(y - 60 - 2 * Math.sin(frame)) < 12 ? 12 : tissue;
  }
  const [dx, dy] = [x - 80, y - 60];
  const r = Math.hypot(dx, dy);
  if (r > 56) return 0;
  if (r < 4) return 8;
  if (r <= 7) return 230;
  const lumen = 20 + 3 * Math.sin(frame + Math.atan2(dy, dx) * 2);
  if (r < lumen) return 15 + speckle(frame, x, y) / 16;
  return r < lumen + 8 ? 140 + speckle(frame, x, y) / 4 : tissue;
}

/** RGB of one pixel: the gray, with a Doppler-red patch on the probes' loops. */
function loopRgb(kind: LoopKind, frame: number, x: number, y: number): [number, number, number] {
  const gray = loopGray(kind, frame, x, y);
  if (kind !== 'ivus' && gray > 0 && Math.hypot(x - 90, y - 80) < 8) return [clamp(gray + 90), clamp(gray * 0.4), clamp(gray * 0.4)];
  return [gray, gray, gray];
}

export interface LoopHeader {
  patientId: string;
  modality?: 'US' | 'IVUS';
  manufacturer?: string;
  model?: string;
  bodyPart?: string;
  seriesDescription?: string;
  /** IVUS Pullback Rate (0018,3101), mm/s. */
  pullbackRate?: number;
}

export type LoopEncoding = 'jpeg-ybr422' | 'jpeg-gray';

/** A loop of `kind` as a DICOM file encoded by the tools (throws when one is missing: check missingDicomTools). */
export function encodeLoop(kind: LoopKind, header: LoopHeader, encoding: LoopEncoding = 'jpeg-ybr422'): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'us-loop-'));
  try {
    const color = encoding === 'jpeg-ybr422';
    const spp = color ? 3 : 1;
    const raw = Buffer.alloc(LOOP_COLUMNS * LOOP_ROWS * LOOP_FRAMES * spp);
    let at = 0;
    for (let f = 0; f < LOOP_FRAMES; f++) {
      for (let y = 0; y < LOOP_ROWS; y++) {
        for (let x = 0; x < LOOP_COLUMNS; x++) {
          if (color) for (const v of loopRgb(kind, f, x, y)) raw[at++] = v;
          else raw[at++] = loopGray(kind, f, x, y);
        }
      }
    }
    const rawPath = path.join(dir, 'frames.raw');
    const native = path.join(dir, 'native.dcm');
    const out = path.join(dir, 'loop.dcm');
    fs.writeFileSync(rawPath, raw);
    execFileSync('gdcmimg', [
      '-i', rawPath, '-o', native, '--size', `${LOOP_COLUMNS},${LOOP_ROWS},${LOOP_FRAMES}`, '--spp', String(spp), '--depth', '8',
      '--pi', color ? 'RGB' : 'MONOCHROME2', '-C', '1.2.840.10008.5.1.4.1.1.3.1',
    ]);
    const set = (tag: string, value: string | number | undefined) => (value === undefined ? [] : ['-i', `(${tag})=${value}`]);
    execFileSync('dcmodify', [
      '-nb',
      ...set('0008,0060', header.modality ?? 'US'),
      ...set('0010,0020', header.patientId),
      ...set('0010,0010', 'Loop^Test'),
      ...set('0008,0020', '20260312'),
      ...set('0008,0030', '101530'),
      ...set('0008,0070', header.manufacturer),
      ...set('0008,1090', header.model),
      ...set('0018,0015', header.bodyPart),
      ...set('0008,103e', header.seriesDescription),
      ...set('0018,3101', header.pullbackRate),
      ...set('0018,1063', '33.3'),
      ...set('0028,0008', LOOP_FRAMES),
      native,
    ]);
    if (color) execFileSync('dcmcjpeg', ['+eb', '+s2', native, out]);
    else execFileSync('gdcmconv', ['-J', '-Y', '-q', '90', native, out]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
