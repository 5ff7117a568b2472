import type { ReactNode } from 'react';
import { Box, Center } from '@chakra-ui/react';
import { LoadingState } from '../ui/states.tsx';
import { AppLayout } from './app-layout.tsx';
import { PartBoundary, useRetryableLazy } from './lazy-part.tsx';
import { loadReview } from './review-preload.ts';

/** Before the review's code is in there is no session for the toolbars: the states fill the page. */
function onThePage(content: ReactNode) {
  return (
    <Center minHeight="100dvh" p="6" bg="bg">
      <Box maxWidth="36rem" width="full">
        {content}
      </Box>
    </Center>
  );
}

/**
 * The review route (issue 27, first load): the review's code (its session, pixi, the codecs, the
 * report) downloads when a record is opened, not with sign-in and the patients list; the records
 * page has usually fetched it by then (review-preload.ts).
 */
export function ReviewScreen({ patientId, recordId }: { patientId: string; recordId: string }) {
  const { Part: ReviewRoute, attempt, retry } = useRetryableLazy(loadReview);
  return (
    <PartBoundary what="the review" attempt={attempt} retry={retry} place={onThePage} fallback={onThePage(<LoadingState label="Opening the review…" />)}>
      <ReviewRoute
        patientId={patientId}
        recordId={recordId}
        frame={(content) => (
          <AppLayout screen="review" fullBleed>
            {content}
          </AppLayout>
        )}
      />
    </PartBoundary>
  );
}
