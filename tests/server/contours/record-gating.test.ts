/**
 * The server gates a record from its own stored frames (issue 28), chunk by chunk, and finds what
 * the review finds from the same frames: the same end-diastolic frames and heart rate, one frame
 * per cycle of the generator's known beat.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { detectEndDiastole } from '../../../src/domain/gating/end-diastole.ts';
import { scoreGating } from '../../../src/domain/gating/gating-score.ts';
import { motionSignal } from '../../../src/domain/gating/motion-signal.ts';
import { chunkFrames } from '../../../src/domain/images.ts';
import { gatingCase } from '../../../src/domain/synthetic/gating-cases.ts';
import { recordGating } from '../../../src/server/contours/record-gating.ts';
import type { RecordRow } from '../../../src/server/db/records.ts';

const gzip = promisify(zlib.gzip);

describe('the server’s gating of a record', () => {
  it('finds the end-diastolic frames the review finds from the same frames, one per cycle of the beat', async () => {
    const pullback = gatingCase(3103, 100, 'clean');
    const frameCount = 240;
    const size = pullback.model.frameSizePx;
    const frames = Array.from({ length: frameCount }, (_, i) => pullback.render(i));
    const record = { bmodeFrameCount: frameCount, frameWidth: size, frameHeight: size, frameRateHz: pullback.model.frameRateHz } as RecordRow;
    const chunksRead: number[] = [];
    const imaging = {
      async chunk(_record: RecordRow, series: string, index: number) {
        expect(series).toBe('bmode');
        chunksRead.push(index);
        const { first, count } = chunkFrames(index, frameCount);
        return gzip(Buffer.concat(frames.slice(first, first + count)));
      },
    };
    const onServer = await recordGating(imaging, record);
    const inPage = detectEndDiastole(motionSignal({ width: size, height: size, frameCount, frame: (i) => frames[i]! }), { frameRateHz: pullback.model.frameRateHz });
    expect(onServer).toEqual(inPage);
    expect(onServer, JSON.stringify(onServer)).toMatchObject({ kind: 'gated' });
    if (onServer.kind !== 'gated') return;
    const interior = pullback.endDiastolicFrames.filter((f) => f >= 6 && f < frameCount - 6);
    const score = scoreGating(interior, onServer.endDiastolicFrames);
    expect(score.hits).toBe(score.cycles);
    expect(chunksRead).toEqual([...new Set(chunksRead)].sort((a, b) => a - b));
  }, 120_000);
});
