/** Model calls allowed in one chat turn unless --max-steps says otherwise. */
export const DEFAULT_MAX_STEPS = 12;
