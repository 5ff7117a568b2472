import { useEffect, useId, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { Alert, Box, Button, HStack, Wrap } from '@chakra-ui/react';
import { LOCALE } from '../../../domain/constants.ts';
import { useAuthUser } from '../../auth/auth-context.tsx';
import type { AnnotationStore } from '../manifest/annotation-store.ts';
import { draftOwnerFromIdToken, draftStore, type DraftStore } from './draft-store.ts';
import { DraftSync, type DraftOffer } from './draft-sync.ts';
import type { OtherTabs } from './draft-tabs.ts';

const WHEN = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'short' });

/** The prompt's sentence: when the draft was made, what it was based on, and whether the server moved on since. */
export function draftPromptText({ draft, serverVersion }: DraftOffer): string {
  const when = WHEN.format(new Date(draft.updatedAt));
  const base = draft.baseVersion > 0 ? `based on version ${draft.baseVersion}` : 'started before any version was saved';
  const text = `You have unsaved annotations from ${when} on this record (${base}).`;
  if (serverVersion <= draft.baseVersion) return text;
  return `${text} Version ${serverVersion} has been saved since: saving will ask whether to keep yours as the next version or load version ${serverVersion}.`;
}

/**
 * Keeps the open record's unsaved annotations as a draft of the signed-in user, and finds one left
 * from before. Null without a user whose ID token names an issuer and subject (nothing is kept then).
 */
export function useAnnotationDraft(
  store: AnnotationStore,
  { patientId, recordId }: { patientId: string; recordId: string },
  drafts: DraftStore = draftStore,
): DraftSync | null {
  const owner = draftOwnerFromIdToken(useAuthUser()?.idToken);
  const issuer = owner?.issuer;
  const subject = owner?.subject;
  const sync = useMemo(
    () => (issuer && subject ? new DraftSync({ store, drafts, owner: { issuer, subject }, patientId, recordId }) : null),
    [store, drafts, issuer, subject, patientId, recordId],
  );
  // Stopping (leaving the review, or the session ending) writes what is pending first.
  useEffect(() => sync?.start(), [sync]);
  return sync;
}

/**
 * The non-blocking offer of a kept draft: a bar in the layout above the review, so it never covers
 * the image (issue 26); the panels below take the height that is left. It takes no focus (the
 * review's keys keep working) but comes first in the review's tab order, and is announced as an
 * alert when it appears.
 */
export function DraftPrompt({ sync }: { sync: DraftSync }) {
  const offer = useSyncExternalStore(sync.subscribe, sync.getOffer);
  if (!offer) return null;
  return (
    <ReviewBar title="Unsaved annotations" status="warning" testId="draft-prompt">
      <Alert.Description>{draftPromptText(offer)}</Alert.Description>
      <HStack gap="2">
        <Button size="xs" colorPalette="teal" onClick={() => sync.restore()}>
          Restore
        </Button>
        <Button size="xs" variant="outline" onClick={() => sync.discard()}>
          Discard
        </Button>
      </HStack>
    </ReviewBar>
  );
}

/** A bar above the review, in the layout's flow (so never over the image), named by its title. */
function ReviewBar({ title, status, testId, children }: { title: string; status: 'warning' | 'info'; testId: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <Box role="region" aria-labelledby={titleId} data-testid={testId} flexShrink={0}>
      <Alert.Root status={status} variant="surface" borderRadius="0" borderWidth="0" borderBottomWidth="1px" py="2">
        <Alert.Indicator />
        <Alert.Content>
          <Wrap align="center" gap="3" rowGap="1">
            <Alert.Title id={titleId}>{title}</Alert.Title>
            {children}
          </Wrap>
        </Alert.Content>
      </Alert.Root>
    </Box>
  );
}

/** The notice's sentence, or null when no other tab needs a word. */
export function otherTabText({ unsaved, draftIsTheirs }: OtherTabs): string | null {
  if (unsaved) {
    return 'This record is open in another tab with unsaved annotations. Both tabs’ unsaved annotations are kept, and offered one after the other when the record is opened again; to work on one version, save in one tab, then reload the other.';
  }
  if (draftIsTheirs) {
    return 'Unsaved annotations left by another tab are kept for this record. This tab’s are kept beside them, and both are offered, one after the other, when the record is opened again.';
  }
  return null;
}

/**
 * Says so, without blocking anything, when the same record is open with unsaved annotations in
 * another tab of this browser (draft-tabs.ts), or another tab's are in the record's draft: a
 * clinician would otherwise meet two offers at the next open without knowing why.
 */
export function OtherTabNotice({ sync }: { sync: DraftSync }) {
  const others = useSyncExternalStore(sync.tabs.subscribe, sync.tabs.getState);
  const text = otherTabText(others);
  if (!text) return null;
  return (
    <ReviewBar title="Open in another tab" status="info" testId="other-tab-notice">
      <Alert.Description role="status">{text}</Alert.Description>
    </ReviewBar>
  );
}
