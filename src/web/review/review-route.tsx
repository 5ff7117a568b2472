import { useMemo, type ReactNode } from 'react';
import { Box, Flex } from '@chakra-ui/react';
import { useSearch } from 'wouter';
import { useApi } from '../api/api-context.tsx';
import { askRecordImages } from './frames/use-record-images.ts';
import { ReviewPage } from './review-page.tsx';
import { AnnotationDraftOffer, ReviewSessionProvider } from './session/review-session-provider.tsx';

export interface ReviewRouteProps {
  patientId: string;
  recordId: string;
  /** The app's frame around the review (its layout and toolbars), which reads the session set here. */
  frame: (content: ReactNode) => ReactNode;
}

/**
 * The review of one record as the router mounts it: its one session around the app's frame (the
 * toolbars read it), the draft offer as a bar above the page, in the layout's flow so that it never
 * covers the image. Loaded on its own when a record is opened (see loadReviewRoute in index.ts):
 * with it come pixi, the codecs and the report, which sign-in and the patients list do not need.
 */
export function ReviewRoute({ patientId, recordId, frame }: ReviewRouteProps) {
  const api = useApi();
  const noImage = new URLSearchParams(useSearch()).get('noImage') === 'true';
  // Asked as the route first renders, not from the page's effect after the whole review has
  // rendered: the server starts a first open's frames on this request (issue 27). Keyed by the
  // record, so that lists asked for one record are never handed to another's review.
  const askedImages = useMemo(() => (noImage ? null : askRecordImages(api, recordId)), [api, recordId, noImage]);
  return (
    <ReviewSessionProvider patientId={patientId} recordId={recordId}>
      {frame(
        <Flex direction="column" height="full">
          <AnnotationDraftOffer />
          <Box flex="1" minHeight="0">
            <ReviewPage patientId={patientId} recordId={recordId} askedImages={askedImages} />
          </Box>
        </Flex>,
      )}
    </ReviewSessionProvider>
  );
}
