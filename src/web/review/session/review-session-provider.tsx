import { useEffect, useState, type ReactNode } from 'react';
import { useApi } from '../../api/api-context.tsx';
import { useConfirm } from '../../ui/confirm.tsx';
import { useToast } from '../../ui/toast.tsx';
import { AnnotationSessionContext } from '../annotations/annotation-session.tsx';
import { DraftPrompt, OtherTabNotice, useAnnotationDraft } from '../annotations/draft-prompt.tsx';
import { LeaveDialog } from '../annotations/leave-dialog.tsx';
import type { ImageStore } from '../frames/image-store.ts';
import { PlaybackContext } from '../playback/playback-context.tsx';
import { ActiveToolContext, type ActiveToolStore } from '../tools/active-tool.tsx';
import { ReviewSession } from './review-session.ts';
import { ReviewSessionContext, useReviewSession } from './review-session-context.ts';

export { useReviewSession };

export interface ReviewSessionProviderProps {
  patientId: string;
  recordId: string;
  children: ReactNode;
  /** Seams for tests: an image store already holding frames, a tool already chosen. */
  images?: ImageStore;
  tools?: ActiveToolStore;
}

/**
 * The one provider of an open record: creates its ReviewSession once, opens it, and disposes it
 * when the clinician leaves (the router keys it by record, so another record is another session).
 * The toolbars, the page and the panels reach the parts they use (playback, tool, annotations)
 * through the folders' own hooks, which read the contexts set here.
 */
export function ReviewSessionProvider({ patientId, recordId, children, images, tools }: ReviewSessionProviderProps) {
  const api = useApi();
  const toast = useToast();
  const confirm = useConfirm();
  const [session] = useState(() => new ReviewSession({ patientId, recordId, api, toast, confirm, images, tools }));
  useEffect(() => session.open(), [session]);
  return (
    <ReviewSessionContext value={session}>
      <ActiveToolContext value={session.tools}>
        <PlaybackContext value={session.playback}>
          <AnnotationSessionContext value={session.annotations}>
            {children}
            <LeaveDialog question={session.leaveQuestion} />
          </AnnotationSessionContext>
        </PlaybackContext>
      </ActiveToolContext>
    </ReviewSessionContext>
  );
}

/**
 * Keeps unsaved annotation edits as a draft in this browser as they are made (so an ended session,
 * which skips the leave question, loses nothing), and offers a kept draft when the record opens.
 * The route renders it as a bar above the review page, in the layout's flow so that it never covers
 * the image, and first in the page's tab order; it needs the signed-in user (the draft's owner).
 */
export function AnnotationDraftOffer() {
  const session = useReviewSession();
  const draft = useAnnotationDraft(session.annotationStore, { patientId: session.patientId, recordId: session.recordId });
  // Discard when leaving deletes the draft too.
  useEffect(() => (draft ? session.attachDrafts(draft) : undefined), [session, draft]);
  if (!draft) return null;
  return (
    <>
      <DraftPrompt sync={draft} />
      <OtherTabNotice sync={draft} />
    </>
  );
}
