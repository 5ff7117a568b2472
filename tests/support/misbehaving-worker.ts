/** A worker for the pool's fault tests: each job says how to behave. */
import { parentPort } from 'node:worker_threads';

type Job = { id: number; behaviour: 'answer' | 'exit' | 'hang' | 'throw' | 'leak' | 'progress'; value?: number };

parentPort!.on('message', (job: Job) => {
  switch (job.behaviour) {
    case 'answer':
      parentPort!.postMessage({ id: job.id, value: (job.value ?? 0) * 2 });
      return;
    case 'progress':
      // Two interim messages, then the answer a while later.
      parentPort!.postMessage({ id: job.id, progress: job.value });
      parentPort!.postMessage({ id: job.id, progress: (job.value ?? 0) + 1 });
      setTimeout(() => parentPort!.postMessage({ id: job.id, value: (job.value ?? 0) * 2 }), 50);
      return;
    case 'exit':
      process.exit(0);
      return;
    case 'hang':
      for (;;) {
        // Busy forever: only the pool's job timeout ends this.
      }
    case 'throw':
      throw new Error('the job blew up');
    case 'leak': {
      const kept: number[][] = [];
      for (;;) kept.push(Array.from({ length: 1 << 16 }, (_, i) => i));
    }
  }
});
