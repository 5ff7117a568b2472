import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { RecordRow } from '../../../src/server/db/records.ts';
import { createFrameWorkerPool, type FrameWorkerPool } from '../../../src/server/imaging/frame-worker-pool.ts';
import { GenerationQueue } from '../../../src/server/imaging/generation-queue.ts';
import { RecordImaging } from '../../../src/server/imaging/record-imaging.ts';
import { memoryStore } from '../memory-store.ts';
import { smallDemoRecord } from '../small-demo-record.ts';
import { gate, settle } from './gated-task.ts';


describe('the generation queue while chunks Play waits for are being made', () => {
  it('starts no other page or background chunk, even on a free lane, until the last of them is made', async () => {
    const queue = new GenerationQueue({ lanes: 2, idleQuietMs: 0 });
    const started: string[] = [];
    const play = ['play-1', 'play-2', 'play-3'].map((name) => gate(started, name));
    const tasks = [queue.run('demand', play[0]!.work, { forPlay: true }), queue.run('demand', play[1]!.work, { forPlay: true })];
    // The page's request for the chunk after Play's, queued before Play's last one.
    const after = gate(started, 'after-play');
    tasks.push(queue.run('demand', after.work), queue.run('demand', play[2]!.work, { forPlay: true }));
    const background = queue.run('background', async () => void started.push('background'));
    await settle();
    expect(started).toEqual(['play-1', 'play-2']);
    play[0]!.release();
    await settle();
    // Play's last chunk before the page's request queued ahead of it.
    expect(started).toEqual(['play-1', 'play-2', 'play-3']);
    play[1]!.release();
    await settle();
    // A lane is free, but Play's last chunk still runs: nothing else takes the CPU from it.
    expect(started).toEqual(['play-1', 'play-2', 'play-3']);
    play[2]!.release();
    await settle();
    expect(started).toEqual(['play-1', 'play-2', 'play-3', 'after-play', 'background']);
    after.release();
    await Promise.all([...tasks.map((task) => task.result), background.result]);
  });

  it('still starts the chunk of a slice the clinician jumps to, and a detection\'s first pass, on a free lane', async () => {
    const queue = new GenerationQueue({ lanes: 2, idleQuietMs: 0 });
    const started: string[] = [];
    const play = gate(started, 'play');
    const playing = queue.run('demand', play.work, { forPlay: true });
    const held = queue.run('demand', async () => void started.push('held'));
    const provisional = gate(started, 'first-pass');
    const detection = queue.run('provisional', provisional.work);
    await settle();
    expect(started).toEqual(['play', 'first-pass']);
    provisional.release();
    await detection.result;
    const urgent = queue.run('urgent', async () => void started.push('jumped-to'));
    await urgent.result;
    expect(started).toEqual(['play', 'first-pass', 'jumped-to']);
    play.release();
    await Promise.all([playing.result, held.result]);
    expect(started).toEqual(['play', 'first-pass', 'jumped-to', 'held']);
  });

  it('counts a waiting chunk joined by a first open as one Play waits for', async () => {
    const queue = new GenerationQueue({ lanes: 2, idleQuietMs: 0 });
    const started: string[] = [];
    const play = gate(started, 'play');
    const playing = queue.run('demand', play.work, { forPlay: true });
    const held = queue.run('demand', async () => void started.push('held'));
    // A record's background generation asked for this chunk first; then the first open joined it.
    const joined = gate(started, 'joined');
    const task = queue.run('background', joined.work);
    await settle();
    expect(started).toEqual(['play']);
    task.raise('demand', { forPlay: true });
    await settle();
    expect(started).toEqual(['play', 'joined']);
    play.release();
    await settle();
    // The joined chunk still runs, and it is Play's: the page's other request still waits.
    expect(started).toEqual(['play', 'joined']);
    joined.release();
    await Promise.all([playing.result, task.result, held.result]);
    expect(started).toEqual(['play', 'joined', 'held']);
  });
});

const silentLog = { error: () => {}, warn: () => {}, info: () => {} } as unknown as FastifyBaseLogger;
const record = (id: string): RecordRow => smallDemoRecord({ id, demoSeed: 11, bmodeFrameCount: 16 * 10, chunkFormat: 'frame-pack' }, 128);

describe('a first open on two frame workers', () => {
  let pool: FrameWorkerPool;
  beforeAll(() => {
    pool = createFrameWorkerPool(2);
  });
  afterAll(() => pool.close());

  it("renders the page's request for the chunk after Play's only once every chunk Play waits for is encoded", async () => {
    const events: string[] = [];
    const noted: FrameWorkerPool = {
      size: pool.size,
      close: () => pool.close(),
      generate: (options, start, end, angio) => {
        events.push(`render ${angio ? 'angio' : 'bmode'} ${start / 16}`);
        return pool.generate(options, start, end, angio);
      },
      make: async (options, frames, rendered) => {
        events.push(`render ${frames.angio ? 'angio' : 'bmode'} ${frames.start / 16}`);
        const pack = await pool.make(options, frames, rendered);
        events.push('encoded');
        return pack;
      },
    };
    const imaging = new RecordImaging(memoryStore(), noted, silentLog);
    const opened = record('00000000-0000-4000-8000-0000000000a7');
    imaging.prepare(opened);
    // The page asks for chunks beyond Play's (its four downloads at once) while Play's are being made.
    while (!events.includes('render bmode 0')) await new Promise((resolve) => setTimeout(resolve, 5));
    const later = [7, 8, 9].map((index) => imaging.framePack(opened, 'bmode', index, 'demand'));
    await Promise.all([imaging.framePack(opened, 'bmode', 6, 'demand'), ...later]);
    // bmode 0-6: seven chunks Play waits for; without the hold bmode 7 started beside bmode 6.
    const renders = events.filter((event) => event.startsWith('render'));
    const encodedBefore = (render: string) => events.slice(0, events.indexOf(render)).filter((event) => event === 'encoded').length;
    expect(renders.slice(0, 7).sort()).toEqual([0, 1, 2, 3, 4, 5, 6].map((index) => `render bmode ${index}`).sort());
    // The angio's first chunk is made right after them (its panel starts once Play is ready), before the page's later chunks.
    expect(renders[7]).toBe('render angio 0');
    expect(encodedBefore('render angio 0')).toBe(7);
    expect(encodedBefore('render bmode 7')).toBeGreaterThanOrEqual(7);
    imaging.close();
  });
});
