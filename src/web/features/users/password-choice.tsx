import { Field, Input, RadioGroup, Stack } from '@chakra-ui/react';
import { PASSWORD_MIN_LENGTH } from '../../../domain/users.ts';

export type PasswordMode = 'link' | 'password';

export interface PasswordChoiceProps {
  mode: PasswordMode;
  onModeChange: (mode: PasswordMode) => void;
  password: string;
  onPasswordChange: (password: string) => void;
  error?: string | null;
}

/** Either a one-time link the person uses to choose their own password, or a password typed here. */
export function PasswordChoice({ mode, onModeChange, password, onPasswordChange, error }: PasswordChoiceProps) {
  return (
    <Stack gap="3">
      <RadioGroup.Root
        value={mode}
        onValueChange={(details) => onModeChange(details.value === 'password' ? 'password' : 'link')}
        aria-label="How the password is set"
        colorPalette="teal"
      >
        <Stack gap="2">
          <RadioGroup.Item value="link">
            <RadioGroup.ItemHiddenInput />
            <RadioGroup.ItemIndicator />
            <RadioGroup.ItemText>Create a one-time link (they choose the password)</RadioGroup.ItemText>
          </RadioGroup.Item>
          <RadioGroup.Item value="password">
            <RadioGroup.ItemHiddenInput />
            <RadioGroup.ItemIndicator />
            <RadioGroup.ItemText>Set a password now</RadioGroup.ItemText>
          </RadioGroup.Item>
        </Stack>
      </RadioGroup.Root>
      {mode === 'password' ? (
        <Field.Root required invalid={Boolean(error)}>
          <Field.Label>
            Password <Field.RequiredIndicator />
          </Field.Label>
          <Input
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => onPasswordChange(event.currentTarget.value)}
          />
          {error ? <Field.ErrorText>{error}</Field.ErrorText> : <Field.HelperText>At least {PASSWORD_MIN_LENGTH} characters.</Field.HelperText>}
        </Field.Root>
      ) : null}
    </Stack>
  );
}
