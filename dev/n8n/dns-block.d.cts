/** Types of dns-block.cjs (a network whose DNS answers nothing but localhost). */
export declare function block(): void;
export declare function unblock(): void;
