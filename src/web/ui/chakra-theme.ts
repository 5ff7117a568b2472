import { defineConfig } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  checkboxSlotRecipe,
  animationStyles,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  codeRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dialogSlotRecipe,
  emptyStateSlotRecipe,
  fieldSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  popoverSlotRecipe,
  progressSlotRecipe,
  radioGroupSlotRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  skipNavLinkRecipe,
  spinnerRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
  tooltipSlotRecipe,
} from '@chakra-ui/react/theme';

/**
 * The recipes (component styles) of the Chakra components the app renders, by the key each
 * component looks its recipe up with. A component whose recipe is missing renders unstyled, so
 * tests/web/ui/system.test.ts fails when a screen starts using a component not listed here.
 */
/**
 * Chakra's button fades every property of its "common" transition, opacity among them, and opacity
 * changes only with the disabled state (0.6). Save and Play turn enabled by themselves while a
 * review sets up (annotations loaded, frames in): each fade is 0.2 s of compositor animation, a full
 * composited frame every display refresh (issue 27: 4-9 of them before Play, as many right after it).
 * The disabled state shows at once instead; hover, pressed and focus colours still ease.
 */
const buttonRecipeWithoutOpacityFade = {
  ...buttonRecipe,
  base: {
    ...buttonRecipe.base,
    transitionProperty: 'background-color, border-color, color, fill, stroke, box-shadow, translate, transform',
  },
};

export const USED_RECIPES = {
  badge: badgeRecipe,
  button: buttonRecipeWithoutOpacityFade,
  code: codeRecipe,
  heading: headingRecipe,
  icon: iconRecipe,
  input: inputRecipe,
  inputAddon: inputAddonRecipe,
  link: linkRecipe,
  separator: separatorRecipe,
  skeleton: skeletonRecipe,
  skipNavLink: skipNavLinkRecipe,
  spinner: spinnerRecipe,
};

export const USED_SLOT_RECIPES = {
  alert: alertSlotRecipe,
  card: cardSlotRecipe,
  checkbox: checkboxSlotRecipe,
  dialog: dialogSlotRecipe,
  emptyState: emptyStateSlotRecipe,
  field: fieldSlotRecipe,
  list: listSlotRecipe,
  menu: menuSlotRecipe,
  nativeSelect: nativeSelectSlotRecipe,
  popover: popoverSlotRecipe,
  progress: progressSlotRecipe,
  radioGroup: radioGroupSlotRecipe,
  table: tableSlotRecipe,
  tabs: tabsSlotRecipe,
  toast: toastSlotRecipe,
  tooltip: tooltipSlotRecipe,
};

/**
 * Chakra's default theme (its defaultThemeConfig: tokens, semantic tokens, text and layer styles,
 * keyframes, global CSS, preflight) with only the used recipes: the look of every screen stays
 * Chakra's, without shipping the styles of the ~60 components the app never renders.
 */
export const themeWithUsedRecipes = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens,
    semanticTokens,
    recipes: USED_RECIPES,
    slotRecipes: USED_SLOT_RECIPES,
    textStyles,
    layerStyles,
    animationStyles,
  },
});
