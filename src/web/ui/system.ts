import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import { dialogAnatomy } from '@chakra-ui/react/anatomy';
import {
  DARK_MODE_CLASS,
  DISABLED_OPACITY,
  THEME_PREFIX,
  TRANSITION_DURATION,
  Z_INDEX,
} from '../../domain/constants.ts';
import { themeWithUsedRecipes } from './chakra-theme.ts';

/** Class Chakra uses for the light theme when a subtree must opt out of dark mode. */
export const LIGHT_MODE_CLASS = `${THEME_PREFIX}-theme-light`;

const EASING = 'cubic-bezier(0.4, 0, 0.2, 1)';

function transition(property: string) {
  return { transition: property, transitionTimingFunction: EASING, transitionDuration: TRANSITION_DURATION };
}

/** Chakra's named transitions, re-declared so every one of them runs for the spec's 0.2s (Chakra's own is 150ms). */
const TRANSITIONS: Record<string, string> = {
  all: 'all',
  common:
    'color, background-color, border-color, text-decoration-color, fill, stroke, opacity, box-shadow, transform, filter, backdrop-filter',
  colors: 'color, background-color, border-color, text-decoration-color, fill, stroke',
  opacity: 'opacity',
  position: 'left, right, top, bottom, inset-inline, inset-block',
  backgrounds: 'background, background-color, background-image, background-position',
  size: 'width, height',
  shadow: 'box-shadow',
  transform: 'transform',
};

export const appConfig = defineConfig({
  cssVarsPrefix: THEME_PREFIX,
  /*
   * The spec orders three layers: tailwind-base, primevue, tailwind-utilities. Chakra's equivalents,
   * in this fixed order: `sm-reset`, `sm-base` and `sm-tokens` play tailwind-base (preflight, global
   * styles, CSS variables), `sm-recipes` plays primevue (component styles); style props are emitted
   * unlayered by Emotion, so like tailwind-utilities they win over every layer.
   */
  layers: { reset: 'sm-reset', base: 'sm-base', tokens: 'sm-tokens', recipes: 'sm-recipes' },
  conditions: {
    dark: `.${DARK_MODE_CLASS} &, .${DARK_MODE_CLASS} .chakra-theme:not(.${LIGHT_MODE_CLASS}) &`,
    light: `:root &, .${LIGHT_MODE_CLASS} &`,
  },
  globalCss: {
    html: {
      colorPalette: 'teal',
      colorScheme: 'light',
      // Chakra's focusRing utility reads these: a 1px solid ring 2px away from the element.
      '--focus-ring-width': '1px',
      '--focus-ring-offset': '2px',
      '--focus-ring-style': 'solid',
    },
    [`html.${DARK_MODE_CLASS}`]: { colorScheme: 'dark' },
  },
  utilities: {
    transition: {
      values: Object.keys(TRANSITIONS),
      transform(value: string) {
        const property = TRANSITIONS[value];
        return property ? transition(property) : { transition: value };
      },
    },
  },
  theme: {
    tokens: {
      zIndex: {
        overlay: { value: Z_INDEX.overlay },
        modal: { value: Z_INDEX.modal },
        dropdown: { value: Z_INDEX.menu },
        popover: { value: Z_INDEX.menu },
        tooltip: { value: Z_INDEX.tooltip },
      },
      durations: {
        fast: { value: TRANSITION_DURATION },
        moderate: { value: TRANSITION_DURATION },
        normal: { value: TRANSITION_DURATION },
      },
    },
    semanticTokens: {
      colors: {
        // White on Chakra's teal.600 is 3.7:1; teal.700 reads at 5.5:1 (WCAG AA for normal text).
        teal: { solid: { value: { _light: '{colors.teal.700}', _dark: '{colors.teal.700}' } } },
        // White on orange.600 is 3.6:1 (the not-IVUS question's button, the "other ultrasound" badge);
        // orange.700 reads at 5.2:1. Dark mode's black on orange.500 already passes.
        // Green likewise (success toasts, solid badges): white on green.600 is 3.3:1, on green.700 5.0:1.
        green: { solid: { value: { _light: '{colors.green.700}', _dark: '{colors.green.700}' } } },
        // Chakra's light status texts are below 4.5:1 on white (warning orange.600 3.6:1, error red.500
        // 3.8:1, success green.600 3.3:1): the "other ultrasound" label, field errors, "Done".
        fg: {
          warning: { value: { _light: '{colors.orange.700}', _dark: '{colors.orange.300}' } },
          error: { value: { _light: '{colors.red.700}', _dark: '{colors.red.400}' } },
          success: { value: { _light: '{colors.green.700}', _dark: '{colors.green.300}' } },
        },
        orange: { solid: { value: { _light: '{colors.orange.700}', _dark: '{colors.orange.500}' } } },
      },
    },
    layerStyles: {
      disabled: { value: { opacity: DISABLED_OPACITY, cursor: 'not-allowed' } },
    },
    slotRecipes: {
      // Chakra stacks dialogs on its popover index; the spec puts the backdrop on "overlay" and the dialog on "modal".
      dialog: {
        slots: dialogAnatomy.keys(),
        base: {
          backdrop: {
            '--dialog-z-index': 'zIndex.overlay',
            zIndex: 'calc(var(--dialog-z-index) + var(--layer-index, 0))',
          },
          positioner: { '--dialog-z-index': 'zIndex.modal' },
          content: { '--dialog-z-index': 'zIndex.modal' },
        },
      },
    },
  },
});

/*
 * Chakra's defaultConfig carries a recipe for every component it has (about 75, ~25 kB gzip of the
 * first load, issue 27). The system is made from its base (utilities, conditions) and its theme
 * without the recipes, plus only the recipes of the components the app renders
 * (chakra-theme.ts; tests/web/ui/system.test.ts checks that every Chakra component the app imports
 * has its recipe here).
 */
export const system = createSystem(defaultBaseConfig, themeWithUsedRecipes, appConfig);
