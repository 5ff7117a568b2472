import { useEffect, useState } from 'react';
import { Box, Center, Image, Stack, Text } from '@chakra-ui/react';
import { useApi } from '../../api/api-context.tsx';
import { ImageIcon } from '../../ui/icons.tsx';

export interface RecordPreviewProps {
  /** API path of the image relative to the tenant's API root, or null while none exists. */
  path: string | null;
  /** 'Angio' or 'B-mode'. */
  label: string;
  /** Said where there is no image (a record without its pullback says why). */
  emptyText?: string;
}

type PreviewState = { path: string | null; url: string | null; failed: boolean };

function Placeholder({ label, text }: { label: string; text: string }) {
  return (
    <Center
      role="img"
      aria-label={`${label} preview: ${text.toLowerCase()}`}
      bg="bg.muted"
      color="fg.muted"
      height="full"
      width="full"
      data-testid="preview-placeholder"
    >
      <Stack align="center" gap="1">
        <ImageIcon boxSize="6" />
        <Text textStyle="xs">{text}</Text>
      </Stack>
    </Center>
  );
}

/** The image comes through the API client (it needs the authorization header) and is shown from an object URL. */
function FetchedPreview({ path, label }: { path: string; label: string }) {
  const api = useApi();
  const [state, setState] = useState<PreviewState>({ path: null, url: null, failed: false });

  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    api
      .getBlob(path, { signal: controller.signal })
      .then((blob) => {
        url = URL.createObjectURL(blob);
        setState({ path, url, failed: false });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ path, url: null, failed: true });
      });
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [api, path]);

  const current = state.path === path ? state : null;
  if (current?.url) {
    // Letterboxed, never cropped: a non-square angiogram or ultrasound frame shows whole.
    return <Image src={current.url} alt={`${label} preview`} objectFit="contain" width="full" height="full" />;
  }
  return <Placeholder label={label} text={current?.failed ? 'Preview unavailable' : 'Loading'} />;
}

export function RecordPreview({ path, label, emptyText = 'No preview yet' }: RecordPreviewProps) {
  return (
    <Stack gap="1" flex="1" minWidth="0">
      <Box aspectRatio={1} rounded="l1" overflow="hidden" borderWidth="1px" bg="black">
        {path ? <FetchedPreview path={path} label={label} /> : <Placeholder label={label} text={emptyText} />}
      </Box>
      <Text textStyle="xs" color="fg.muted" textAlign="center">
        {label}
      </Text>
    </Stack>
  );
}
