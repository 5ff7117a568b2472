import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Point } from '../../../src/domain/annotations/manifest.ts';
import { shoelaceArea } from '../../../src/domain/annotations/measurements.ts';
import { diceCoefficient } from '../../../src/domain/contours/agreement.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { truthContours } from '../../../src/domain/synthetic/contours.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';

// `npm run -s detect` end to end: real PNG files of generated frames, the script run by node as a child process.
const root = path.resolve(import.meta.dirname, '../../..');
const script = path.join(root, 'scripts/detect.ts');
const model = createPullbackModel({ seed: 11, frameCount: 900 });
const renderer = createBmodeRenderer(model);
const size = model.frameSizePx;
const first = 240;
let directory = '';

/** Writes an 8-bit gray image as a gray (colorType 0) or RGB (colorType 2) PNG. */
function writePng(file: string, pixels: Uint8Array, width: number, height: number, colorType: 0 | 2): string {
  const png = new PNG({ width, height });
  for (let p = 0; p < width * height; p++) {
    png.data[4 * p] = pixels[p]!;
    png.data[4 * p + 1] = pixels[p]!;
    png.data[4 * p + 2] = pixels[p]!;
    png.data[4 * p + 3] = 255;
  }
  const target = path.join(directory, file);
  fs.writeFileSync(target, PNG.sync.write(png, { colorType }));
  return target;
}

/** A demo frame placed at (70, 10) on a 600 x 540 canvas: catheter at (326, 266). */
function onCanvas(frame: Uint8Array): Uint8Array {
  const canvas = new Uint8Array(600 * 540);
  for (let row = 0; row < size; row++) canvas.set(frame.subarray(row * size, (row + 1) * size), (row + 10) * 600 + 70);
  return canvas;
}

function run(...args: string[]): { status: number | null; lines: string[]; stderr: string } {
  const result = spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, lines: result.stdout.split('\n').filter((line) => line.length > 0), stderr: result.stderr };
}

interface Line {
  file: string;
  lumen: [number, number][];
  vessel: [number, number][];
  lumenAreaMm2: number;
  vesselAreaMm2: number;
  plaqueBurden: number;
  confidence: number;
}

const points = (pairs: readonly [number, number][]): Point[] => pairs.map(([x, y]) => ({ x, y }));
const shifted = (polygon: readonly Point[], dx: number, dy: number): Point[] => polygon.map((p) => ({ x: p.x + dx, y: p.y + dy }));

beforeAll(() => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'detect-cli-'));
  for (let k = 0; k < 3; k++) writePng(`gray-${k}.png`, renderer.renderFrame(first + k), size, size, 0);
  // A gated export: one frame per heartbeat (30 frames apart at 30 frames/s).
  for (let k = 0; k < 3; k++) writePng(`gated-${k}.png`, renderer.renderFrame(first + 30 * k), size, size, 0);
  for (let k = 0; k < 2; k++) writePng(`rgb-wide-${k}.png`, onCanvas(renderer.renderFrame(first + k)), 600, 540, 2);
  fs.writeFileSync(path.join(directory, 'not-a-png.png'), 'hello');
  // The first frame again as a 16-bit gray PNG: v · 257 scales back to exactly v.
  const wide = new Uint16Array(4 * size * size);
  const frame = renderer.renderFrame(first);
  for (let p = 0; p < size * size; p++) wide.fill(frame[p]! * 257, 4 * p, 4 * p + 3).fill(65535, 4 * p + 3, 4 * p + 4);
  const png = new PNG({ width: size, height: size });
  png.data = Buffer.from(wide.buffer);
  fs.writeFileSync(path.join(directory, 'gray16-0.png'), PNG.sync.write(png, { colorType: 0, bitDepth: 16, inputColorType: 6 }));
});

afterAll(() => {
  if (directory) fs.rmSync(directory, { recursive: true, force: true });
});

describe('npm run -s detect', () => {
  it('prints one JSON line per frame, in order, with polygons closing round the truth', { timeout: 60_000 }, () => {
    const files = [0, 1, 2].map((k) => path.join(directory, `gray-${k}.png`));
    const { status, lines, stderr } = run('--spacing-mm', '0.01', ...files);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(lines).toHaveLength(3);
    lines.forEach((line, k) => {
      // The exact layout: keys in order, a space after every colon and comma.
      expect(line).toMatch(/^\{"file": ".*", "lumen": \[\[[-\d.]+, [-\d.]+\](, \[[-\d.]+, [-\d.]+\])*\], "vessel": \[\[.*\]\], "lumenAreaMm2": [\d.]+, "vesselAreaMm2": [\d.]+, "plaqueBurden": [\d.]+, "confidence": [\d.]+\}$/);
      const parsed = JSON.parse(line) as Line;
      expect(Object.keys(parsed)).toEqual(['file', 'lumen', 'vessel', 'lumenAreaMm2', 'vesselAreaMm2', 'plaqueBurden', 'confidence']);
      expect(parsed.file).toBe(files[k]);
      const truth = truthContours(model, first + k);
      expect(diceCoefficient(points(parsed.lumen), truth.lumen, size)).toBeGreaterThan(0.95);
      expect(diceCoefficient(points(parsed.vessel), truth.vessel, size)).toBeGreaterThan(0.95);
      expect(parsed.lumenAreaMm2).toBeCloseTo(shoelaceArea(points(parsed.lumen)) * 1e-4, 2);
      expect(parsed.vesselAreaMm2).toBeGreaterThan(parsed.lumenAreaMm2);
      expect(parsed.plaqueBurden).toBeCloseTo((parsed.vesselAreaMm2 - parsed.lumenAreaMm2) / parsed.vesselAreaMm2, 3);
      expect(parsed.confidence).toBeGreaterThanOrEqual(0);
      expect(parsed.confidence).toBeLessThanOrEqual(1);
    });
    // Consecutive frames: the later ones have the temporal cue, and more confidence than the first.
    const confidences = lines.map((line) => (JSON.parse(line) as Line).confidence);
    expect(confidences[2]!).toBeGreaterThan(confidences[0]!);
  });

  it('gives each frame of a gated export (one per heartbeat, given in one call) the borders it gets alone', { timeout: 60_000 }, () => {
    const files = [0, 1, 2].map((k) => path.join(directory, `gated-${k}.png`));
    const together = run('--spacing-mm', '0.01', ...files);
    expect(together.status).toBe(0);
    expect(together.lines).toHaveLength(3);
    together.lines.forEach((line, k) => {
      expect(line).toBe(run('--spacing-mm', '0.01', files[k]!).lines[0]);
      const parsed = JSON.parse(line) as Line;
      expect(diceCoefficient(points(parsed.lumen), truthContours(model, first + 30 * k).lumen, size)).toBeGreaterThan(0.95);
    });
  });

  it('reads RGB frames of another size with the catheter given by --centre', { timeout: 60_000 }, () => {
    const files = [0, 1].map((k) => path.join(directory, `rgb-wide-${k}.png`));
    const { status, lines } = run('--centre', '326,266', '--spacing-mm=0.01', ...files);
    expect(status).toBe(0);
    expect(lines).toHaveLength(2);
    const parsed = JSON.parse(lines[1]!) as Line;
    const truth = truthContours(model, first + 1);
    expect(diceCoefficient(points(parsed.lumen), shifted(truth.lumen, 70, 10), 600)).toBeGreaterThan(0.95);
    expect(diceCoefficient(points(parsed.vessel), shifted(truth.vessel, 70, 10), 600)).toBeGreaterThan(0.95);
  });

  it('handles frames of different sizes in one run, each size with its own detector', { timeout: 60_000 }, () => {
    const files = [path.join(directory, 'gray-0.png'), path.join(directory, 'rgb-wide-0.png'), path.join(directory, 'gray-1.png')];
    const { status, lines } = run('--spacing-mm', '0.01', ...files);
    expect(status).toBe(0);
    expect(lines.map((line) => (JSON.parse(line) as Line).file)).toEqual(files);
    // The wide frame without --centre: the catheter taken at its middle (300, 270), 26 px off the true one.
    expect(diceCoefficient(points((JSON.parse(lines[2]!) as Line).lumen), truthContours(model, first + 1).lumen, size)).toBeGreaterThan(0.95);
  });

  it('reads a 16-bit PNG as the same frame scaled to 8 bits', { timeout: 60_000 }, () => {
    const eight = run('--spacing-mm', '0.01', path.join(directory, 'gray-0.png'));
    const sixteen = run('--spacing-mm', '0.01', path.join(directory, 'gray16-0.png'));
    expect(sixteen.status).toBe(0);
    const strip = (line: string): string => line.replace(/^\{"file": "[^"]*", /, '');
    expect(strip(sixteen.lines[0]!)).toBe(strip(eight.lines[0]!));
  });

  it('reports bad files on stderr with exit code 2, and still prints the good ones', { timeout: 60_000 }, () => {
    const good = path.join(directory, 'gray-0.png');
    const missing = path.join(directory, 'missing.png');
    const notPng = path.join(directory, 'not-a-png.png');
    const { status, lines, stderr } = run('--spacing-mm', '0.01', missing, good, notPng);
    expect(status).toBe(2);
    expect(lines).toHaveLength(1);
    expect((JSON.parse(lines[0]!) as Line).file).toBe(good);
    expect(stderr).toContain(`${missing}: no such file`);
    expect(stderr).toContain(`${notPng}: not a PNG`);
  });

  it('rejects a bad command line before printing anything', { timeout: 60_000 }, () => {
    const good = path.join(directory, 'gray-0.png');
    for (const args of [
      ['--spacing-mm', 'abc', good],
      ['--spacing-mm', '-0.01', good],
      ['--spacing-mm', '0', good],
      [good],
      ['--spacing-mm', '0.01'],
      ['--spacing-mm', '0.01', '--centre', '12', good],
      ['--spacing-mm', '0.01', '--frobnicate', good],
    ]) {
      const { status, lines, stderr } = run(...args);
      expect({ args, status, lines }).toEqual({ args, status: 2, lines: [] });
      expect(stderr).toMatch(/^detect: .+\nusage: npm run -s detect/);
    }
  });
});
