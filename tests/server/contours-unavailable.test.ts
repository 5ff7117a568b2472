/**
 * Automatic borders need a field of view the border search fits in: an imported pullback of tiny
 * frames gets a 422 saying so (and the page shows it), not an endless 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDicom } from '../support/dicom-fixtures.ts';
import { batchDone, closeSession, get, openSession, uploadAccepted, type Session } from './import-session.ts';
import { postgresUnavailable } from './test-server.ts';

describe.skipIf(postgresUnavailable)('contours of frames too small for the border search', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession();
  });
  afterAll(() => closeSession(session));

  it('answers 422 contours_unavailable with the field of view in mm', async () => {
    // 64 pixels of 0.01 mm: 0.64 mm across, less than a coronary lumen.
    const tiny = makeDicom({ frames: 6, rows: 64, columns: 64, patientId: 'TINY-FOV-1', regionDeltaXcm: 0.001 });
    const [done] = await batchDone(session, await uploadAccepted(session, [{ name: 'tiny.dcm', bytes: tiny.bytes }]));
    const url = `/api/demo/records/${done!.recordId}/contours`;
    let response = await get(session, url);
    for (let attempt = 0; response.statusCode === 202 && attempt < 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      response = await get(session, url);
    }
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toEqual({ error: 'contours_unavailable', message: 'The frames cover 0.6 mm across: too little for automatic lumen and vessel borders.' });
  });
});
