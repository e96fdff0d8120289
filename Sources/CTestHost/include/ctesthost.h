#ifndef CTESTHOST_H
#define CTESTHOST_H
// No declarations: the target's one constructor runs when a process that links SimSecurity starts.
#endif
