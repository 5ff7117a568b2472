/**
 * Issue 27, first load: the design system carries only the recipes of the Chakra components the
 * app renders, and otherwise draws exactly what Chakra's full default theme drew.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSystem, defaultConfig } from '@chakra-ui/react';
import { appConfig, system } from '../../../src/web/ui/system.ts';

/** The system as it was: Chakra's whole default theme (every recipe) with the app's settings. */
const fullSystem = createSystem(defaultConfig, appConfig);

/** Chakra components whose recipe key is not their name in lower camel case. */
const RECIPE_KEY_OF: Record<string, string> = { IconButton: 'button', InputGroup: 'inputAddon' };

/** Every name the app's web code imports from '@chakra-ui/react'. */
function chakraImports(): Set<string> {
  const names = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (/\.tsx?$/.test(entry.name)) {
        const source = fs.readFileSync(file, 'utf8');
        for (const match of source.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@chakra-ui\/react'/g)) {
          for (const name of match[1]!.split(',')) {
            const bare = name.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!.trim();
            if (bare) names.add(bare);
          }
        }
      }
    }
  };
  visit(path.resolve('src/web'));
  return names;
}

const recipeKey = (component: string) => RECIPE_KEY_OF[component] ?? component.charAt(0).toLowerCase() + component.slice(1);

describe('design system recipes', () => {
  const used = [...chakraImports()].map(recipeKey).filter((key) => fullSystem.isRecipe(key) || fullSystem.isSlotRecipe(key));

  it('has the recipe of every Chakra component the app renders, as Chakra draws it', () => {
    // Sanity: the scan finds the app's components (a broken scan would make this test pass vacuously).
    expect(used).toEqual(expect.arrayContaining(['button', 'table', 'dialog', 'menu', 'toast', 'tooltip', 'field']));
    for (const key of used) {
      const kind = fullSystem.isRecipe(key) ? 'recipe' : 'slot recipe';
      expect({ key, kind, present: kind === 'recipe' ? system.isRecipe(key) : system.isSlotRecipe(key) }).toEqual({ key, kind, present: true });
      const ours = kind === 'recipe' ? system.getRecipe(key) : system.getSlotRecipe(key);
      const chakras = kind === 'recipe' ? fullSystem.getRecipe(key) : fullSystem.getSlotRecipe(key);
      // The one deliberate difference: a button's disabled state shows at once, without an opacity fade
      // (button-disabled-fade.test.tsx); every other transitioned property is Chakra's.
      const expected =
        key === 'button'
          ? { ...chakras, base: { ...chakras.base, transitionProperty: 'background-color, border-color, color, fill, stroke, box-shadow, translate, transform' } }
          : chakras;
      expect(ours, key).toEqual(expected);
    }
  });

  it('leaves out the recipes of components the app never renders (they were ~13 kB gzip of the first load)', () => {
    for (const unused of ['accordion', 'avatar', 'carousel', 'colorPicker', 'datePicker', 'select', 'slider', 'treeView']) {
      expect(system.isSlotRecipe(unused), unused).toBe(false);
    }
    expect(system.isRecipe('textarea')).toBe(false);
  });

  it('keeps the tokens, global styles and preflight of the full theme', () => {
    expect(system.getTokenCss()).toEqual(fullSystem.getTokenCss());
    expect(system.getGlobalCss()).toEqual(fullSystem.getGlobalCss());
    expect(system.getPreflightCss()).toEqual(fullSystem.getPreflightCss());
    expect(system.token('colors.teal.solid')).toBe(fullSystem.token('colors.teal.solid'));
    expect(system.css({ textStyle: 'sm', layerStyle: 'disabled', animationStyle: 'slide-fade-in', focusRing: 'outside' })).toEqual(
      fullSystem.css({ textStyle: 'sm', layerStyle: 'disabled', animationStyle: 'slide-fade-in', focusRing: 'outside' }),
    );
  });
});
