// The true floor of a launch: a C program that only exits (no Swift runtime, no Foundation), for
// launch-bench's baseline beside the Foundation-linked bare-exit.
int main(void) { return 0; }
