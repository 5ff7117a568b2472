import type { ReactNode } from 'react';
import { Field, Input } from '@chakra-ui/react';

export interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Shown instead of the hint while the value is refused. */
  error?: string | undefined;
  hint?: ReactNode;
  required?: boolean;
  type?: 'text' | 'url' | 'password';
  /** Monospaced, for identifiers such as AE titles and addresses. */
  mono?: boolean;
  maxLength?: number;
}

/**
 * One labelled text input of an administration dialog, with its error or hint below. Nothing is
 * spell-checked or auto-filled (identifiers and addresses, not prose); a password field asks the
 * browser for a new password, so a stored sign-in password is never offered for a PACS secret.
 */
export function TextField({ label, value, onChange, error, hint, required = false, type = 'text', mono = false, maxLength }: TextFieldProps) {
  return (
    <Field.Root required={required} invalid={Boolean(error)}>
      <Field.Label>
        {label} {required ? <Field.RequiredIndicator /> : null}
      </Field.Label>
      <Input
        type={type}
        autoComplete={type === 'password' ? 'new-password' : 'off'}
        spellCheck={false}
        fontFamily={mono ? 'mono' : undefined}
        maxLength={maxLength}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
      {error ? <Field.ErrorText>{error}</Field.ErrorText> : hint ? <Field.HelperText>{hint}</Field.HelperText> : null}
    </Field.Root>
  );
}
