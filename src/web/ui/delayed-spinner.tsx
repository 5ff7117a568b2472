import { useEffect, useState } from 'react';
import { Box, Spinner, type SpinnerProps } from '@chakra-ui/react';

/** Waits shorter than this show no spinner at all: most start-up steps take less. */
export const SPINNER_DELAY_MS = 400;

/**
 * A spinner that appears only once the wait has lasted SPINNER_DELAY_MS. A spinning element makes
 * the browser composite the page sixty times a second; under software WebGL that took most of the
 * GPU process while the review was starting, delaying its first frame. A box of the spinner's
 * size holds its place meanwhile, so nothing moves when it appears.
 */
export function DelayedSpinner(props: SpinnerProps) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), SPINNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  if (shown) return <Spinner {...props} />;
  const size = { xs: '3', sm: '4', md: '5', lg: '8', xl: '10' }[String(props.size ?? 'md')] ?? '5';
  return <Box boxSize={size} data-testid="spinner-placeholder" aria-hidden />;
}
