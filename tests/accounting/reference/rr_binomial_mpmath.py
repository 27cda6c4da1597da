# delta(eps) of k-fold RR(lambda), summed over j with loggamma-started terms (mpmath, 40 digits)
import mpmath as mp, sys
mp.mp.dps = 40
def delta(lam, k, eps):
    lam = mp.mpf(lam); L = mp.log(lam); p = lam/(1+lam)
    mean = k*p; sd = mp.sqrt(k*p*(1-p))
    lo = max(0, int(mean - 40*sd)); hi = min(k, int(mean + 40*sd))
    # first j with (2j-k) L > eps
    jf = int(mp.floor((k + eps/L)/2)) + 1
    s = mp.mpf(0)
    j0 = max(lo, jf)
    logP = mp.loggamma(k+1) - mp.loggamma(j0+1) - mp.loggamma(k-j0+1) + j0*mp.log(p) + (k-j0)*mp.log(1-p)
    P = mp.exp(logP)
    for j in range(j0, hi+1):
        s += P * (1 - mp.exp(eps - (2*j-k)*L))
        P *= mp.mpf(k-j)/(j+1)*lam
    return s
if __name__ == "__main__":
    k = int(sys.argv[1]); lam = mp.mpf(3)/2
    for e in sys.argv[2:]:
        print(e, mp.nstr(delta(lam, k, mp.mpf(e)), 20))
