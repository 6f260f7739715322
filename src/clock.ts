// The one source of time. Tests pass their own to make timestamps predictable.
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();
