import { useEffect, useState } from 'react';
import { Center, Image, Skeleton, Text } from '@chakra-ui/react';
import type { PacsBrowseApi } from './pacs-api.ts';

const SIZE = '16';

export interface PacsThumbnailProps {
  pacs: PacsBrowseApi;
  connectionId: string;
  studyInstanceUid: string;
  seriesInstanceUid: string;
  /** Said to screen readers, e.g. 'IVUS series 1: LAD pullback'. */
  label: string;
}

/**
 * A frame of the series rendered by the PACS. It comes through the API client (the route needs
 * the user's authorization) and is shown from an object URL, freed when the row goes.
 */
export function PacsThumbnail({ pacs, connectionId, studyInstanceUid, seriesInstanceUid, label }: PacsThumbnailProps) {
  const [state, setState] = useState<{ status: 'loading' } | { status: 'ready'; url: string } | { status: 'none' }>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    pacs
      .thumbnail(connectionId, studyInstanceUid, seriesInstanceUid, controller.signal)
      .then((blob) => {
        // Gone meanwhile: no URL is made, so none is left unfreed.
        if (controller.signal.aborted) return;
        url = URL.createObjectURL(blob);
        setState({ status: 'ready', url });
      })
      // 404: the PACS cannot render this series (a report, an unsupported syntax); any failure shows the same box.
      .catch(() => {
        if (!controller.signal.aborted) setState({ status: 'none' });
      });
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [pacs, connectionId, studyInstanceUid, seriesInstanceUid]);

  if (state.status === 'loading') return <Skeleton boxSize={SIZE} rounded="l1" data-testid="pacs-thumbnail-loading" />;
  if (state.status === 'ready') {
    return <Image src={state.url} alt={`Preview of ${label}`} boxSize={SIZE} objectFit="cover" rounded="l1" bg="black" data-testid="pacs-thumbnail" />;
  }
  return (
    <Center boxSize={SIZE} bg="bg.muted" color="fg.muted" rounded="l1" role="img" aria-label={`No preview of ${label}`} data-testid="pacs-no-preview">
      <Text textStyle="2xs" textAlign="center">
        No preview
      </Text>
    </Center>
  );
}
