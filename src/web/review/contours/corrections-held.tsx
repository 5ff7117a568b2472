import { Text } from '@chakra-ui/react';
import { CORRECTIONS_LOADING_TEXT } from '../manifest/saved-corrections.ts';

/**
 * In the pullback analysis's header while its figures wait for the saved corrections
 * (manifest/saved-corrections.ts): a quiet status while they load; an alert with Retry when
 * they could not be loaded, since the figures stay held back until they are.
 */
export function CorrectionsHeld({ text, onRetry }: { text: string; onRetry?: (() => void) | undefined }) {
  if (text === CORRECTIONS_LOADING_TEXT) {
    return (
      <Text textStyle="xs" color="fg.muted" role="status" data-testid="corrections-status">
        {text}
      </Text>
    );
  }
  return (
    <Text textStyle="xs" color="fg.error" role="alert" data-testid="corrections-status">
      {text}.{' '}
      {onRetry ? (
        <Text as="button" textDecoration="underline" onClick={onRetry}>
          Retry
        </Text>
      ) : null}
    </Text>
  );
}
