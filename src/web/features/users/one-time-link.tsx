import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Dialog, Field, HStack, Input, Stack, Text } from '@chakra-ui/react';
import type { SetPasswordLink } from '../../../domain/users.ts';
import { formatDateTime } from './user-format.ts';

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * A one-time set-password link, shown once: the server keeps only a hash of it, so closing the
 * dialog loses it for good (a new reset makes a new one).
 */
export function OneTimeLink({ link, email }: { link: SetPasswordLink; email: string }) {
  const [copy, setCopy] = useState<CopyState>('idle');
  const inputRef = useRef<HTMLInputElement>(null);
  const resetTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(resetTimer.current), []);

  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(link.url);
      setCopy('copied');
    } catch {
      // No clipboard access (an insecure origin, a refused permission): select it for the user to copy.
      inputRef.current?.select();
      setCopy('failed');
    }
    clearTimeout(resetTimer.current);
    resetTimer.current = setTimeout(() => setCopy('idle'), 3000);
  };

  return (
    <Stack gap="4">
      <Alert.Root status="warning">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>This link is shown only once</Alert.Title>
          <Alert.Description>
            Send it to {email} now. It sets their password once and stops working on {formatDateTime(link.expiresAt)}.
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <Field.Root>
        <Field.Label>One-time set-password link</Field.Label>
        <HStack width="full">
          <Input ref={inputRef} readOnly value={link.url} fontFamily="mono" fontSize="sm" onFocus={(event) => event.currentTarget.select()} data-testid="one-time-link" />
          <Button onClick={onCopy} variant="outline" flexShrink={0}>
            {copy === 'copied' ? 'Copied' : 'Copy link'}
          </Button>
        </HStack>
      </Field.Root>
      <Text role="status" aria-live="polite" textStyle="sm" color={copy === 'failed' ? 'fg.error' : 'fg.muted'} minHeight="1.25rem">
        {copy === 'copied' ? 'The link is on the clipboard.' : copy === 'failed' ? 'Copying was not allowed: the link is selected, copy it by hand.' : ''}
      </Text>
    </Stack>
  );
}

/** A dialog's last step once a link is made: the link, shown once, and Done. */
export function OneTimeLinkStep({ title, link, email, onDone }: { title: string; link: SetPasswordLink; email: string; onDone: () => void }) {
  return (
    <>
      <Dialog.Header>
        <Dialog.Title>{title}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <OneTimeLink link={link} email={email} />
      </Dialog.Body>
      <Dialog.Footer>
        <Button onClick={onDone}>Done</Button>
      </Dialog.Footer>
    </>
  );
}
