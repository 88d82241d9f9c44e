/* plan_time.c: the time to make one Hines plan of nsys copies of a random 1,000-row tree (92% chain links) on the serial backend, float; argv: nsys, strategy (2 branch-level, 3 fine-tree). */
#include <hinesbatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){
  int n=1000; long ns=argc>1?atol(argv[1]):65536; int strat=argc>2?atoi(argv[2]):HB_STRATEGY_BRANCH_LEVEL;
  int32_t *p=malloc(n*sizeof *p); p[0]=-1; srand(1);
  for(int i=1;i<n;i++) p[i]= (rand()%100<92)? i-1 : rand()%i;
  hb_context*ctx; if(hb_context_create(HB_BACKEND_SERIAL,&ctx)) {puts(hb_last_error());return 1;}
  hb_plan_options o; hb_plan_options_init(&o); o.strategy=strat;
  hb_plan*pl; double t0=now();
  if(hb_plan_create_hines_uniform(ctx,HB_FLOAT,ns,n,p,&o,&pl)){puts(hb_last_error());return 1;}
  double t1=now(); printf("create %.3f s\n",t1-t0);
  hb_plan_destroy(pl); hb_context_destroy(ctx); return 0;}
