[97m[41m00001 FAIL beta
[38;5;2m[49m00002[39m   [38;5;2mgamma[39m   [38;5;2mzeta
[38;2;3;100;200m00003 ===[39m|
00004 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00005 warn zeta
[39m[49m00006 eta
         00007 [31mtheta[39m beta mu
00008 [32miota[39m iota epsilon
00009 [33mkappa[39m delta kappa
[1m[34m00010[0m[39m[49m lambda done
[97m[41m00011 FAIL mu
[38;5;12m[49m00012[39m   [38;5;12malpha[39m   [38;5;12mdelta
[38;2;13;100;200m00013 =============[39m|
00014 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00015 warn delta
[39m[49m00016 epsilon
             00017 [34mzeta[39m mu beta
00018 [35meta[39m eta eta
00019 [36mtheta[39m beta mu
[1m[37m00020[0m[39m[49m iota done
[97m[41m00021 FAIL kappa
[38;5;22m[49m00022[39m   [38;5;22mlambda[39m  [38;5;22mbeta
[38;2;23;100;200m00023 =======================[39m|
00024 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00025 warn beta
[39m[49m00026 gamma
           00027 [37mdelta[39m kappa delta
00028 [31mepsilon[39m epsilon iota
00029 [32mzeta[39m mu beta
[1m[33m00030[0m[39m[49m eta done
[97m[41m00031 FAIL theta
[38;5;32m[49m00032[39m   [38;5;32miota[39m    [38;5;32mmu
[38;2;33;100;200m00033 =================================[39m|
00034 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00035 warn mu
[39m[49m00036 alpha
           00037 [33mbeta[39m theta zeta
00038 [34mgamma[39m gamma lambda
00039 [35mdelta[39m kappa delta
[1m[36m00040[0m[39m[49m epsilon done
[97m[41m00041 FAIL zeta
[38;5;42m[49m00042[39m   [38;5;42meta[39m     [38;5;42mkappa
[38;2;43;100;200m00043 ===========================================[39m|
00044 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00045 warn kappa
[39m[49m00046 lambda
            00047 [36mmu[39m zeta theta
00048 [37malpha[39m alpha alpha
00049 [31mbeta[39m theta zeta
[1m[32m00050[0m[39m[49m gamma done
[97m[41m00051 FAIL delta
[38;5;52m[49m00052[39m   [38;5;52mepsilon[39m [38;5;52mtheta
[38;2;53;100;200m00053 =====================================================[39m|
00054 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00055 warn theta
[39m[49m00056 iota
          00057 [32mkappa[39m delta kappa
00058 [33mlambda[39m lambda gamma
00059 [34mmu[39m zeta theta
[1m[35m00060[0m[39m[49m alpha done
[97m[41m00061 FAIL beta
[38;5;62m[49m00062[39m   [38;5;62mgamma[39m   [38;5;62mzeta
[38;2;63;100;200m00063 ===============================================================[39m|
00064 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00065 warn zeta
[39m[49m00066 eta
         00067 [35mtheta[39m beta mu
00068 [36miota[39m iota epsilon
00069 [37mkappa[39m delta kappa
[1m[31m00070[0m[39m[49m lambda done
[97m[41m00071 FAIL mu
[38;5;72m[49m00072[39m   [38;5;72malpha[39m   [38;5;72mdelta
[38;2;73;100;200m00073 =========================================================================[39m|
00074 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00075 warn delta
[39m[49m00076 epsilon
             00077 [31mzeta[39m mu beta
00078 [32meta[39m eta eta
00079 [33mtheta[39m beta mu
[1m[34m00080[0m[39m[49m iota done
[97m[41m00081 FAIL kappa
[38;5;82m[49m00082[39m   [38;5;82mlambda[39m  [38;5;82mbeta
[38;2;83;100;200m00083 ==========================================================================
=========[39m|
00084 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00085 warn beta
[39m[49m00086 gamma
           00087 [34mdelta[39m kappa delta
00088 [35mepsilon[39m epsilon iota
00089 [36mzeta[39m mu beta
[1m[37m00090[0m[39m[49m eta done
[97m[41m00091 FAIL theta
[38;5;92m[49m00092[39m   [38;5;92miota[39m    [38;5;92mmu
[38;2;93;100;200m00093 ==========================================================================
===================[39m|
00094 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00095 warn mu
[39m[49m00096 alpha
           00097 [37mbeta[39m theta zeta
00098 [31mgamma[39m gamma lambda
00099 [32mdelta[39m kappa delta
[1m[33m00100[0m[39m[49m epsilon done
[97m[41m00101 FAIL zeta
[38;5;102m[49m00102[39m   [38;5;102meta[39m     [38;5;102mkappa
[38;2;103;100;200m00103 ==========================================================================
=============================[39m|
00104 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00105 warn kappa
[39m[49m00106 lambda
            00107 [33mmu[39m zeta theta
00108 [34malpha[39m alpha alpha
00109 [35mbeta[39m theta zeta
[1m[36m00110[0m[39m[49m gamma done
[97m[41m00111 FAIL delta
[38;5;112m[49m00112[39m   [38;5;112mepsilon[39m [38;5;112mtheta
[38;2;113;100;200m00113 ==========================================================================
=======================================[39m|
00114 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00115 warn theta
[39m[49m00116 iota
          00117 [36mkappa[39m delta kappa
00118 [37mlambda[39m lambda gamma
00119 [31mmu[39m zeta theta
[1m[32m00120[0m[39m[49m alpha done
[97m[41m00121 FAIL beta
[38;5;122m[49m00122[39m   [38;5;122mgamma[39m   [38;5;122mzeta
[38;2;123;100;200m00123 ==========================================================================
=================================================[39m|
00124 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00125 warn zeta
[39m[49m00126 eta
         00127 [32mtheta[39m beta mu
00128 [33miota[39m iota epsilon
00129 [34mkappa[39m delta kappa
[1m[35m00130[0m[39m[49m lambda done
[97m[41m00131 FAIL mu
[38;5;132m[49m00132[39m   [38;5;132malpha[39m   [38;5;132mdelta
[38;2;133;100;200m00133 ==========================================================================
===========================================================[39m|
00134 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00135 warn delta
[39m[49m00136 epsilon
             00137 [35mzeta[39m mu beta
00138 [36meta[39m eta eta
00139 [37mtheta[39m beta mu
[1m[31m00140[0m[39m[49m iota done
[97m[41m00141 FAIL kappa
[38;5;142m[49m00142[39m   [38;5;142mlambda[39m  [38;5;142mbeta
[38;2;143;100;200m00143 ==========================================================================
=====================================================================[39m|
00144 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00145 warn beta
[39m[49m00146 gamma
           00147 [31mdelta[39m kappa delta
00148 [32mepsilon[39m epsilon iota
00149 [33mzeta[39m mu beta
[1m[34m00150[0m[39m[49m eta done
[97m[41m00151 FAIL theta
[38;5;152m[49m00152[39m   [38;5;152miota[39m    [38;5;152mmu
[38;2;153;100;200m00153 ===[39m|
00154 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00155 warn mu
[39m[49m00156 alpha
           00157 [34mbeta[39m theta zeta
00158 [35mgamma[39m gamma lambda
00159 [36mdelta[39m kappa delta
[1m[37m00160[0m[39m[49m epsilon done
[97m[41m00161 FAIL zeta
[38;5;162m[49m00162[39m   [38;5;162meta[39m     [38;5;162mkappa
[38;2;163;100;200m00163 =============[39m|
00164 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00165 warn kappa
[39m[49m00166 lambda
            00167 [37mmu[39m zeta theta
00168 [31malpha[39m alpha alpha
00169 [32mbeta[39m theta zeta
[1m[33m00170[0m[39m[49m gamma done
[97m[41m00171 FAIL delta
[38;5;172m[49m00172[39m   [38;5;172mepsilon[39m [38;5;172mtheta
[38;2;173;100;200m00173 =======================[39m|
00174 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00175 warn theta
[39m[49m00176 iota
          00177 [33mkappa[39m delta kappa
00178 [34mlambda[39m lambda gamma
00179 [35mmu[39m zeta theta
[1m[36m00180[0m[39m[49m alpha done
[97m[41m00181 FAIL beta
[38;5;182m[49m00182[39m   [38;5;182mgamma[39m   [38;5;182mzeta
[38;2;183;100;200m00183 =================================[39m|
00184 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00185 warn zeta
[39m[49m00186 eta
         00187 [36mtheta[39m beta mu
00188 [37miota[39m iota epsilon
00189 [31mkappa[39m delta kappa
[1m[32m00190[0m[39m[49m lambda done
[97m[41m00191 FAIL mu
[38;5;192m[49m00192[39m   [38;5;192malpha[39m   [38;5;192mdelta
[38;2;193;100;200m00193 ===========================================[39m|
00194 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00195 warn delta
[39m[49m00196 epsilon
             00197 [32mzeta[39m mu beta
00198 [33meta[39m eta eta
00199 [34mtheta[39m beta mu
[1m[35m00200[0m[39m[49m iota done
[97m[41m00201 FAIL kappa
[38;5;202m[49m00202[39m   [38;5;202mlambda[39m  [38;5;202mbeta
[38;2;203;100;200m00203 =====================================================[39m|
00204 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00205 warn beta
[39m[49m00206 gamma
           00207 [35mdelta[39m kappa delta
00208 [36mepsilon[39m epsilon iota
00209 [37mzeta[39m mu beta
[1m[31m00210[0m[39m[49m eta done
[97m[41m00211 FAIL theta
[38;5;212m[49m00212[39m   [38;5;212miota[39m    [38;5;212mmu
[38;2;213;100;200m00213 ===============================================================[39m|
00214 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00215 warn mu
[39m[49m00216 alpha
           00217 [31mbeta[39m theta zeta
00218 [32mgamma[39m gamma lambda
00219 [33mdelta[39m kappa delta
[1m[34m00220[0m[39m[49m epsilon done
[97m[41m00221 FAIL zeta
[38;5;222m[49m00222[39m   [38;5;222meta[39m     [38;5;222mkappa
[38;2;223;100;200m00223 =========================================================================[39m|
00224 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00225 warn kappa
[39m[49m00226 lambda
            00227 [34mmu[39m zeta theta
00228 [35malpha[39m alpha alpha
00229 [36mbeta[39m theta zeta
[1m[37m00230[0m[39m[49m gamma done
[97m[41m00231 FAIL delta
[38;5;232m[49m00232[39m   [38;5;232mepsilon[39m [38;5;232mtheta
[38;2;233;100;200m00233 ==========================================================================
=========[39m|
00234 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00235 warn theta
[39m[49m00236 iota
          00237 [37mkappa[39m delta kappa
00238 [31mlambda[39m lambda gamma
00239 [32mmu[39m zeta theta
[1m[33m00240[0m[39m[49m alpha done
[97m[41m00241 FAIL beta
[38;5;242m[49m00242[39m   [38;5;242mgamma[39m   [38;5;242mzeta
[38;2;243;100;200m00243 ==========================================================================
===================[39m|
00244 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00245 warn zeta
[39m[49m00246 eta
         00247 [33mtheta[39m beta mu
00248 [34miota[39m iota epsilon
00249 [35mkappa[39m delta kappa
[1m[36m00250[0m[39m[49m lambda done
[97m[41m00251 FAIL mu
[38;5;252m[49m00252[39m   [38;5;252malpha[39m   [38;5;252mdelta
[38;2;253;100;200m00253 ==========================================================================
=============================[39m|
00254 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00255 warn delta
[39m[49m00256 epsilon
             00257 [36mzeta[39m mu beta
00258 [37meta[39m eta eta
00259 [31mtheta[39m beta mu
[1m[32m00260[0m[39m[49m iota done
[97m[41m00261 FAIL kappa
[38;5;6m[49m00262[39m   [38;5;6mlambda[39m  [38;5;6mbeta
[38;2;7;100;200m00263 ==========================================================================
=======================================[39m|
00264 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00265 warn beta
[39m[49m00266 gamma
           00267 [32mdelta[39m kappa delta
00268 [33mepsilon[39m epsilon iota
00269 [34mzeta[39m mu beta
[1m[35m00270[0m[39m[49m eta done
[97m[41m00271 FAIL theta
[38;5;16m[49m00272[39m   [38;5;16miota[39m    [38;5;16mmu
[38;2;17;100;200m00273 ==========================================================================
=================================================[39m|
00274 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00275 warn mu
[39m[49m00276 alpha
           00277 [35mbeta[39m theta zeta
00278 [36mgamma[39m gamma lambda
00279 [37mdelta[39m kappa delta
[1m[31m00280[0m[39m[49m epsilon done
[97m[41m00281 FAIL zeta
[38;5;26m[49m00282[39m   [38;5;26meta[39m     [38;5;26mkappa
[38;2;27;100;200m00283 ==========================================================================
===========================================================[39m|
00284 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00285 warn kappa
[39m[49m00286 lambda
            00287 [31mmu[39m zeta theta
00288 [32malpha[39m alpha alpha
00289 [33mbeta[39m theta zeta
[1m[34m00290[0m[39m[49m gamma done
[97m[41m00291 FAIL delta
[38;5;36m[49m00292[39m   [38;5;36mepsilon[39m [38;5;36mtheta
[38;2;37;100;200m00293 ==========================================================================
=====================================================================[39m|
00294 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00295 warn theta
[39m[49m00296 iota
          00297 [34mkappa[39m delta kappa
00298 [35mlambda[39m lambda gamma
00299 [36mmu[39m zeta theta
[1m[37m00300[0m[39m[49m alpha done
[97m[41m00301 FAIL beta
[38;5;46m[49m00302[39m   [38;5;46mgamma[39m   [38;5;46mzeta
[38;2;47;100;200m00303 ===[39m|
00304 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00305 warn zeta
[39m[49m00306 eta
         00307 [37mtheta[39m beta mu
00308 [31miota[39m iota epsilon
00309 [32mkappa[39m delta kappa
[1m[33m00310[0m[39m[49m lambda done
[97m[41m00311 FAIL mu
[38;5;56m[49m00312[39m   [38;5;56malpha[39m   [38;5;56mdelta
[38;2;57;100;200m00313 =============[39m|
00314 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00315 warn delta
[39m[49m00316 epsilon
             00317 [33mzeta[39m mu beta
00318 [34meta[39m eta eta
00319 [35mtheta[39m beta mu
[1m[36m00320[0m[39m[49m iota done
[97m[41m00321 FAIL kappa
[38;5;66m[49m00322[39m   [38;5;66mlambda[39m  [38;5;66mbeta
[38;2;67;100;200m00323 =======================[39m|
00324 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00325 warn beta
[39m[49m00326 gamma
           00327 [36mdelta[39m kappa delta
00328 [37mepsilon[39m epsilon iota
00329 [31mzeta[39m mu beta
[1m[32m00330[0m[39m[49m eta done
[97m[41m00331 FAIL theta
[38;5;76m[49m00332[39m   [38;5;76miota[39m    [38;5;76mmu
[38;2;77;100;200m00333 =================================[39m|
00334 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00335 warn mu
[39m[49m00336 alpha
           00337 [32mbeta[39m theta zeta
00338 [33mgamma[39m gamma lambda
00339 [34mdelta[39m kappa delta
[1m[35m00340[0m[39m[49m epsilon done
[97m[41m00341 FAIL zeta
[38;5;86m[49m00342[39m   [38;5;86meta[39m     [38;5;86mkappa
[38;2;87;100;200m00343 ===========================================[39m|
00344 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00345 warn kappa
[39m[49m00346 lambda
            00347 [35mmu[39m zeta theta
00348 [36malpha[39m alpha alpha
00349 [37mbeta[39m theta zeta
[1m[31m00350[0m[39m[49m gamma done
[97m[41m00351 FAIL delta
[38;5;96m[49m00352[39m   [38;5;96mepsilon[39m [38;5;96mtheta
[38;2;97;100;200m00353 =====================================================[39m|
00354 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00355 warn theta
[39m[49m00356 iota
          00357 [31mkappa[39m delta kappa
00358 [32mlambda[39m lambda gamma
00359 [33mmu[39m zeta theta
[1m[34m00360[0m[39m[49m alpha done
[97m[41m00361 FAIL beta
[38;5;106m[49m00362[39m   [38;5;106mgamma[39m   [38;5;106mzeta
[38;2;107;100;200m00363 ===============================================================[39m|
00364 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00365 warn zeta
[39m[49m00366 eta
         00367 [34mtheta[39m beta mu
00368 [35miota[39m iota epsilon
00369 [36mkappa[39m delta kappa
[1m[37m00370[0m[39m[49m lambda done
[97m[41m00371 FAIL mu
[38;5;116m[49m00372[39m   [38;5;116malpha[39m   [38;5;116mdelta
[38;2;117;100;200m00373 =========================================================================[39m|
00374 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00375 warn delta
[39m[49m00376 epsilon
             00377 [37mzeta[39m mu beta
00378 [31meta[39m eta eta
00379 [32mtheta[39m beta mu
[1m[33m00380[0m[39m[49m iota done
[97m[41m00381 FAIL kappa
[38;5;126m[49m00382[39m   [38;5;126mlambda[39m  [38;5;126mbeta
[38;2;127;100;200m00383 ==========================================================================
=========[39m|
00384 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00385 warn beta
[39m[49m00386 gamma
           00387 [33mdelta[39m kappa delta
00388 [34mepsilon[39m epsilon iota
00389 [35mzeta[39m mu beta
[1m[36m00390[0m[39m[49m eta done
[97m[41m00391 FAIL theta
[38;5;136m[49m00392[39m   [38;5;136miota[39m    [38;5;136mmu
[38;2;137;100;200m00393 ==========================================================================
===================[39m|
00394 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00395 warn mu
[39m[49m00396 alpha
           00397 [36mbeta[39m theta zeta
00398 [37mgamma[39m gamma lambda
00399 [31mdelta[39m kappa delta
[1m[32m00400[0m[39m[49m epsilon done
[97m[41m00401 FAIL zeta
[38;5;146m[49m00402[39m   [38;5;146meta[39m     [38;5;146mkappa
[38;2;147;100;200m00403 ==========================================================================
=============================[39m|
00404 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00405 warn kappa
[39m[49m00406 lambda
            00407 [32mmu[39m zeta theta
00408 [33malpha[39m alpha alpha
00409 [34mbeta[39m theta zeta
[1m[35m00410[0m[39m[49m gamma done
[97m[41m00411 FAIL delta
[38;5;156m[49m00412[39m   [38;5;156mepsilon[39m [38;5;156mtheta
[38;2;157;100;200m00413 ==========================================================================
=======================================[39m|
00414 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00415 warn theta
[39m[49m00416 iota
          00417 [35mkappa[39m delta kappa
00418 [36mlambda[39m lambda gamma
00419 [37mmu[39m zeta theta
[1m[31m00420[0m[39m[49m alpha done
[97m[41m00421 FAIL beta
[38;5;166m[49m00422[39m   [38;5;166mgamma[39m   [38;5;166mzeta
[38;2;167;100;200m00423 ==========================================================================
=================================================[39m|
00424 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00425 warn zeta
[39m[49m00426 eta
         00427 [31mtheta[39m beta mu
00428 [32miota[39m iota epsilon
00429 [33mkappa[39m delta kappa
[1m[34m00430[0m[39m[49m lambda done
[97m[41m00431 FAIL mu
[38;5;176m[49m00432[39m   [38;5;176malpha[39m   [38;5;176mdelta
[38;2;177;100;200m00433 ==========================================================================
===========================================================[39m|
00434 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00435 warn delta
[39m[49m00436 epsilon
             00437 [34mzeta[39m mu beta
00438 [35meta[39m eta eta
00439 [36mtheta[39m beta mu
[1m[37m00440[0m[39m[49m iota done
[97m[41m00441 FAIL kappa
[38;5;186m[49m00442[39m   [38;5;186mlambda[39m  [38;5;186mbeta
[38;2;187;100;200m00443 ==========================================================================
=====================================================================[39m|
00444 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00445 warn beta
[39m[49m00446 gamma
           00447 [37mdelta[39m kappa delta
00448 [31mepsilon[39m epsilon iota
00449 [32mzeta[39m mu beta
[1m[33m00450[0m[39m[49m eta done
[97m[41m00451 FAIL theta
[38;5;196m[49m00452[39m   [38;5;196miota[39m    [38;5;196mmu
[38;2;197;100;200m00453 ===[39m|
00454 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00455 warn mu
[39m[49m00456 alpha
           00457 [33mbeta[39m theta zeta
00458 [34mgamma[39m gamma lambda
00459 [35mdelta[39m kappa delta
[1m[36m00460[0m[39m[49m epsilon done
[97m[41m00461 FAIL zeta
[38;5;206m[49m00462[39m   [38;5;206meta[39m     [38;5;206mkappa
[38;2;207;100;200m00463 =============[39m|
00464 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00465 warn kappa
[39m[49m00466 lambda
            00467 [36mmu[39m zeta theta
00468 [37malpha[39m alpha alpha
00469 [31mbeta[39m theta zeta
[1m[32m00470[0m[39m[49m gamma done
[97m[41m00471 FAIL delta
[38;5;216m[49m00472[39m   [38;5;216mepsilon[39m [38;5;216mtheta
[38;2;217;100;200m00473 =======================[39m|
00474 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00475 warn theta
[39m[49m00476 iota
          00477 [32mkappa[39m delta kappa
00478 [33mlambda[39m lambda gamma
00479 [34mmu[39m zeta theta
[1m[35m00480[0m[39m[49m alpha done
[97m[41m00481 FAIL beta
[38;5;226m[49m00482[39m   [38;5;226mgamma[39m   [38;5;226mzeta
[38;2;227;100;200m00483 =================================[39m|
00484 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00485 warn zeta
[39m[49m00486 eta
         00487 [35mtheta[39m beta mu
00488 [36miota[39m iota epsilon
00489 [37mkappa[39m delta kappa
[1m[31m00490[0m[39m[49m lambda done
[97m[41m00491 FAIL mu
[38;5;236m[49m00492[39m   [38;5;236malpha[39m   [38;5;236mdelta
[38;2;237;100;200m00493 ===========================================[39m|
00494 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00495 warn delta
[39m[49m00496 epsilon
             00497 [31mzeta[39m mu beta
00498 [32meta[39m eta eta
00499 [33mtheta[39m beta mu
[1m[34m00500[0m[39m[49m iota done
[97m[41m00501 FAIL kappa
[38;5;246m[49m00502[39m   [38;5;246mlambda[39m  [38;5;246mbeta
[38;2;247;100;200m00503 =====================================================[39m|
00504 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00505 warn beta
[39m[49m00506 gamma
           00507 [34mdelta[39m kappa delta
00508 [35mepsilon[39m epsilon iota
00509 [36mzeta[39m mu beta
[1m[37m00510[0m[39m[49m eta done
[97m[41m00511 FAIL theta
[38;5;0m[49m00512[39m   [38;5;0miota[39m    [38;5;0mmu
[38;2;1;100;200m00513 ===============================================================[39m|
00514 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00515 warn mu
[39m[49m00516 alpha
           00517 [37mbeta[39m theta zeta
00518 [31mgamma[39m gamma lambda
00519 [32mdelta[39m kappa delta
[1m[33m00520[0m[39m[49m epsilon done
[97m[41m00521 FAIL zeta
[38;5;10m[49m00522[39m   [38;5;10meta[39m     [38;5;10mkappa
[38;2;11;100;200m00523 =========================================================================[39m|
00524 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00525 warn kappa
[39m[49m00526 lambda
            00527 [33mmu[39m zeta theta
00528 [34malpha[39m alpha alpha
00529 [35mbeta[39m theta zeta
[1m[36m00530[0m[39m[49m gamma done
[97m[41m00531 FAIL delta
[38;5;20m[49m00532[39m   [38;5;20mepsilon[39m [38;5;20mtheta
[38;2;21;100;200m00533 ==========================================================================
=========[39m|
00534 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00535 warn theta
[39m[49m00536 iota
          00537 [36mkappa[39m delta kappa
00538 [37mlambda[39m lambda gamma
00539 [31mmu[39m zeta theta
[1m[32m00540[0m[39m[49m alpha done
[97m[41m00541 FAIL beta
[38;5;30m[49m00542[39m   [38;5;30mgamma[39m   [38;5;30mzeta
[38;2;31;100;200m00543 ==========================================================================
===================[39m|
00544 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00545 warn zeta
[39m[49m00546 eta
         00547 [32mtheta[39m beta mu
00548 [33miota[39m iota epsilon
00549 [34mkappa[39m delta kappa
[1m[35m00550[0m[39m[49m lambda done
[97m[41m00551 FAIL mu
[38;5;40m[49m00552[39m   [38;5;40malpha[39m   [38;5;40mdelta
[38;2;41;100;200m00553 ==========================================================================
=============================[39m|
00554 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00555 warn delta
[39m[49m00556 epsilon
             00557 [35mzeta[39m mu beta
00558 [36meta[39m eta eta
00559 [37mtheta[39m beta mu
[1m[31m00560[0m[39m[49m iota done
[97m[41m00561 FAIL kappa
[38;5;50m[49m00562[39m   [38;5;50mlambda[39m  [38;5;50mbeta
[38;2;51;100;200m00563 ==========================================================================
=======================================[39m|
00564 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00565 warn beta
[39m[49m00566 gamma
           00567 [31mdelta[39m kappa delta
00568 [32mepsilon[39m epsilon iota
00569 [33mzeta[39m mu beta
[1m[34m00570[0m[39m[49m eta done
[97m[41m00571 FAIL theta
[38;5;60m[49m00572[39m   [38;5;60miota[39m    [38;5;60mmu
[38;2;61;100;200m00573 ==========================================================================
=================================================[39m|
00574 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00575 warn mu
[39m[49m00576 alpha
           00577 [34mbeta[39m theta zeta
00578 [35mgamma[39m gamma lambda
00579 [36mdelta[39m kappa delta
[1m[37m00580[0m[39m[49m epsilon done
[97m[41m00581 FAIL zeta
[38;5;70m[49m00582[39m   [38;5;70meta[39m     [38;5;70mkappa
[38;2;71;100;200m00583 ==========================================================================
===========================================================[39m|
00584 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00585 warn kappa
[39m[49m00586 lambda
            00587 [37mmu[39m zeta theta
00588 [31malpha[39m alpha alpha
00589 [32mbeta[39m theta zeta
[1m[33m00590[0m[39m[49m gamma done
[97m[41m00591 FAIL delta
[38;5;80m[49m00592[39m   [38;5;80mepsilon[39m [38;5;80mtheta
[38;2;81;100;200m00593 ==========================================================================
=====================================================================[39m|
00594 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00595 warn theta
[39m[49m00596 iota
          00597 [33mkappa[39m delta kappa
00598 [34mlambda[39m lambda gamma
00599 [35mmu[39m zeta theta
[1m[36m00600[0m[39m[49m alpha done
[97m[41m00601 FAIL beta
[38;5;90m[49m00602[39m   [38;5;90mgamma[39m   [38;5;90mzeta
[38;2;91;100;200m00603 ===[39m|
00604 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00605 warn zeta
[39m[49m00606 eta
         00607 [36mtheta[39m beta mu
00608 [37miota[39m iota epsilon
00609 [31mkappa[39m delta kappa
[1m[32m00610[0m[39m[49m lambda done
[97m[41m00611 FAIL mu
[38;5;100m[49m00612[39m   [38;5;100malpha[39m   [38;5;100mdelta
[38;2;101;100;200m00613 =============[39m|
00614 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00615 warn delta
[39m[49m00616 epsilon
             00617 [32mzeta[39m mu beta
00618 [33meta[39m eta eta
00619 [34mtheta[39m beta mu
[1m[35m00620[0m[39m[49m iota done
[97m[41m00621 FAIL kappa
[38;5;110m[49m00622[39m   [38;5;110mlambda[39m  [38;5;110mbeta
[38;2;111;100;200m00623 =======================[39m|
00624 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00625 warn beta
[39m[49m00626 gamma
           00627 [35mdelta[39m kappa delta
00628 [36mepsilon[39m epsilon iota
00629 [37mzeta[39m mu beta
[1m[31m00630[0m[39m[49m eta done
[97m[41m00631 FAIL theta
[38;5;120m[49m00632[39m   [38;5;120miota[39m    [38;5;120mmu
[38;2;121;100;200m00633 =================================[39m|
00634 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00635 warn mu
[39m[49m00636 alpha
           00637 [31mbeta[39m theta zeta
00638 [32mgamma[39m gamma lambda
00639 [33mdelta[39m kappa delta
[1m[34m00640[0m[39m[49m epsilon done
[97m[41m00641 FAIL zeta
[38;5;130m[49m00642[39m   [38;5;130meta[39m     [38;5;130mkappa
[38;2;131;100;200m00643 ===========================================[39m|
00644 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00645 warn kappa
[39m[49m00646 lambda
            00647 [34mmu[39m zeta theta
00648 [35malpha[39m alpha alpha
00649 [36mbeta[39m theta zeta
[1m[37m00650[0m[39m[49m gamma done
[97m[41m00651 FAIL delta
[38;5;140m[49m00652[39m   [38;5;140mepsilon[39m [38;5;140mtheta
[38;2;141;100;200m00653 =====================================================[39m|
00654 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00655 warn theta
[39m[49m00656 iota
          00657 [37mkappa[39m delta kappa
00658 [31mlambda[39m lambda gamma
00659 [32mmu[39m zeta theta
[1m[33m00660[0m[39m[49m alpha done
[97m[41m00661 FAIL beta
[38;5;150m[49m00662[39m   [38;5;150mgamma[39m   [38;5;150mzeta
[38;2;151;100;200m00663 ===============================================================[39m|
00664 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00665 warn zeta
[39m[49m00666 eta
         00667 [33mtheta[39m beta mu
00668 [34miota[39m iota epsilon
00669 [35mkappa[39m delta kappa
[1m[36m00670[0m[39m[49m lambda done
[97m[41m00671 FAIL mu
[38;5;160m[49m00672[39m   [38;5;160malpha[39m   [38;5;160mdelta
[38;2;161;100;200m00673 =========================================================================[39m|
00674 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00675 warn delta
[39m[49m00676 epsilon
             00677 [36mzeta[39m mu beta
00678 [37meta[39m eta eta
00679 [31mtheta[39m beta mu
[1m[32m00680[0m[39m[49m iota done
[97m[41m00681 FAIL kappa
[38;5;170m[49m00682[39m   [38;5;170mlambda[39m  [38;5;170mbeta
[38;2;171;100;200m00683 ==========================================================================
=========[39m|
00684 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00685 warn beta
[39m[49m00686 gamma
           00687 [32mdelta[39m kappa delta
00688 [33mepsilon[39m epsilon iota
00689 [34mzeta[39m mu beta
[1m[35m00690[0m[39m[49m eta done
[97m[41m00691 FAIL theta
[38;5;180m[49m00692[39m   [38;5;180miota[39m    [38;5;180mmu
[38;2;181;100;200m00693 ==========================================================================
===================[39m|
00694 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00695 warn mu
[39m[49m00696 alpha
           00697 [35mbeta[39m theta zeta
00698 [36mgamma[39m gamma lambda
00699 [37mdelta[39m kappa delta
[1m[31m00700[0m[39m[49m epsilon done
[97m[41m00701 FAIL zeta
[38;5;190m[49m00702[39m   [38;5;190meta[39m     [38;5;190mkappa
[38;2;191;100;200m00703 ==========================================================================
=============================[39m|
00704 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00705 warn kappa
[39m[49m00706 lambda
            00707 [31mmu[39m zeta theta
00708 [32malpha[39m alpha alpha
00709 [33mbeta[39m theta zeta
[1m[34m00710[0m[39m[49m gamma done
[97m[41m00711 FAIL delta
[38;5;200m[49m00712[39m   [38;5;200mepsilon[39m [38;5;200mtheta
[38;2;201;100;200m00713 ==========================================================================
=======================================[39m|
00714 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00715 warn theta
[39m[49m00716 iota
          00717 [34mkappa[39m delta kappa
00718 [35mlambda[39m lambda gamma
00719 [36mmu[39m zeta theta
[1m[37m00720[0m[39m[49m alpha done
[97m[41m00721 FAIL beta
[38;5;210m[49m00722[39m   [38;5;210mgamma[39m   [38;5;210mzeta
[38;2;211;100;200m00723 ==========================================================================
=================================================[39m|
00724 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00725 warn zeta
[39m[49m00726 eta
         00727 [37mtheta[39m beta mu
00728 [31miota[39m iota epsilon
00729 [32mkappa[39m delta kappa
[1m[33m00730[0m[39m[49m lambda done
[97m[41m00731 FAIL mu
[38;5;220m[49m00732[39m   [38;5;220malpha[39m   [38;5;220mdelta
[38;2;221;100;200m00733 ==========================================================================
===========================================================[39m|
00734 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00735 warn delta
[39m[49m00736 epsilon
             00737 [33mzeta[39m mu beta
00738 [34meta[39m eta eta
00739 [35mtheta[39m beta mu
[1m[36m00740[0m[39m[49m iota done
[97m[41m00741 FAIL kappa
[38;5;230m[49m00742[39m   [38;5;230mlambda[39m  [38;5;230mbeta
[38;2;231;100;200m00743 ==========================================================================
=====================================================================[39m|
00744 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00745 warn beta
[39m[49m00746 gamma
           00747 [36mdelta[39m kappa delta
00748 [37mepsilon[39m epsilon iota
00749 [31mzeta[39m mu beta
[1m[32m00750[0m[39m[49m eta done
[97m[41m00751 FAIL theta
[38;5;240m[49m00752[39m   [38;5;240miota[39m    [38;5;240mmu
[38;2;241;100;200m00753 ===[39m|
00754 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00755 warn mu
[39m[49m00756 alpha
           00757 [32mbeta[39m theta zeta
00758 [33mgamma[39m gamma lambda
00759 [34mdelta[39m kappa delta
[1m[35m00760[0m[39m[49m epsilon done
[97m[41m00761 FAIL zeta
[38;5;250m[49m00762[39m   [38;5;250meta[39m     [38;5;250mkappa
[38;2;251;100;200m00763 =============[39m|
00764 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00765 warn kappa
[39m[49m00766 lambda
            00767 [35mmu[39m zeta theta
00768 [36malpha[39m alpha alpha
00769 [37mbeta[39m theta zeta
[1m[31m00770[0m[39m[49m gamma done
[97m[41m00771 FAIL delta
[38;5;4m[49m00772[39m   [38;5;4mepsilon[39m [38;5;4mtheta
[38;2;5;100;200m00773 =======================[39m|
00774 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00775 warn theta
[39m[49m00776 iota
          00777 [31mkappa[39m delta kappa
00778 [32mlambda[39m lambda gamma
00779 [33mmu[39m zeta theta
[1m[34m00780[0m[39m[49m alpha done
[97m[41m00781 FAIL beta
[38;5;14m[49m00782[39m   [38;5;14mgamma[39m   [38;5;14mzeta
[38;2;15;100;200m00783 =================================[39m|
00784 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00785 warn zeta
[39m[49m00786 eta
         00787 [34mtheta[39m beta mu
00788 [35miota[39m iota epsilon
00789 [36mkappa[39m delta kappa
[1m[37m00790[0m[39m[49m lambda done
[97m[41m00791 FAIL mu
[38;5;24m[49m00792[39m   [38;5;24malpha[39m   [38;5;24mdelta
[38;2;25;100;200m00793 ===========================================[39m|
00794 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00795 warn delta
[39m[49m00796 epsilon
             00797 [37mzeta[39m mu beta
00798 [31meta[39m eta eta
00799 [32mtheta[39m beta mu
[1m[33m00800[0m[39m[49m iota done
[97m[41m00801 FAIL kappa
[38;5;34m[49m00802[39m   [38;5;34mlambda[39m  [38;5;34mbeta
[38;2;35;100;200m00803 =====================================================[39m|
00804 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00805 warn beta
[39m[49m00806 gamma
           00807 [33mdelta[39m kappa delta
00808 [34mepsilon[39m epsilon iota
00809 [35mzeta[39m mu beta
[1m[36m00810[0m[39m[49m eta done
[97m[41m00811 FAIL theta
[38;5;44m[49m00812[39m   [38;5;44miota[39m    [38;5;44mmu
[38;2;45;100;200m00813 ===============================================================[39m|
00814 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00815 warn mu
[39m[49m00816 alpha
           00817 [36mbeta[39m theta zeta
00818 [37mgamma[39m gamma lambda
00819 [31mdelta[39m kappa delta
[1m[32m00820[0m[39m[49m epsilon done
[97m[41m00821 FAIL zeta
[38;5;54m[49m00822[39m   [38;5;54meta[39m     [38;5;54mkappa
[38;2;55;100;200m00823 =========================================================================[39m|
00824 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00825 warn kappa
[39m[49m00826 lambda
            00827 [32mmu[39m zeta theta
00828 [33malpha[39m alpha alpha
00829 [34mbeta[39m theta zeta
[1m[35m00830[0m[39m[49m gamma done
[97m[41m00831 FAIL delta
[38;5;64m[49m00832[39m   [38;5;64mepsilon[39m [38;5;64mtheta
[38;2;65;100;200m00833 ==========================================================================
=========[39m|
00834 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00835 warn theta
[39m[49m00836 iota
          00837 [35mkappa[39m delta kappa
00838 [36mlambda[39m lambda gamma
00839 [37mmu[39m zeta theta
[1m[31m00840[0m[39m[49m alpha done
[97m[41m00841 FAIL beta
[38;5;74m[49m00842[39m   [38;5;74mgamma[39m   [38;5;74mzeta
[38;2;75;100;200m00843 ==========================================================================
===================[39m|
00844 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00845 warn zeta
[39m[49m00846 eta
         00847 [31mtheta[39m beta mu
00848 [32miota[39m iota epsilon
00849 [33mkappa[39m delta kappa
[1m[34m00850[0m[39m[49m lambda done
[97m[41m00851 FAIL mu
[38;5;84m[49m00852[39m   [38;5;84malpha[39m   [38;5;84mdelta
[38;2;85;100;200m00853 ==========================================================================
=============================[39m|
00854 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00855 warn delta
[39m[49m00856 epsilon
             00857 [34mzeta[39m mu beta
00858 [35meta[39m eta eta
00859 [36mtheta[39m beta mu
[1m[37m00860[0m[39m[49m iota done
[97m[41m00861 FAIL kappa
[38;5;94m[49m00862[39m   [38;5;94mlambda[39m  [38;5;94mbeta
[38;2;95;100;200m00863 ==========================================================================
=======================================[39m|
00864 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00865 warn beta
[39m[49m00866 gamma
           00867 [37mdelta[39m kappa delta
00868 [31mepsilon[39m epsilon iota
00869 [32mzeta[39m mu beta
[1m[33m00870[0m[39m[49m eta done
[97m[41m00871 FAIL theta
[38;5;104m[49m00872[39m   [38;5;104miota[39m    [38;5;104mmu
[38;2;105;100;200m00873 ==========================================================================
=================================================[39m|
00874 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00875 warn mu
[39m[49m00876 alpha
           00877 [33mbeta[39m theta zeta
00878 [34mgamma[39m gamma lambda
00879 [35mdelta[39m kappa delta
[1m[36m00880[0m[39m[49m epsilon done
[97m[41m00881 FAIL zeta
[38;5;114m[49m00882[39m   [38;5;114meta[39m     [38;5;114mkappa
[38;2;115;100;200m00883 ==========================================================================
===========================================================[39m|
00884 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00885 warn kappa
[39m[49m00886 lambda
            00887 [36mmu[39m zeta theta
00888 [37malpha[39m alpha alpha
00889 [31mbeta[39m theta zeta
[1m[32m00890[0m[39m[49m gamma done
[97m[41m00891 FAIL delta
[38;5;124m[49m00892[39m   [38;5;124mepsilon[39m [38;5;124mtheta
[38;2;125;100;200m00893 ==========================================================================
=====================================================================[39m|
00894 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00895 warn theta
[39m[49m00896 iota
          00897 [32mkappa[39m delta kappa
00898 [33mlambda[39m lambda gamma
00899 [34mmu[39m zeta theta
[1m[35m00900[0m[39m[49m alpha done
[97m[41m00901 FAIL beta
[38;5;134m[49m00902[39m   [38;5;134mgamma[39m   [38;5;134mzeta
[38;2;135;100;200m00903 ===[39m|
00904 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00905 warn zeta
[39m[49m00906 eta
         00907 [35mtheta[39m beta mu
00908 [36miota[39m iota epsilon
00909 [37mkappa[39m delta kappa
[1m[31m00910[0m[39m[49m lambda done
[97m[41m00911 FAIL mu
[38;5;144m[49m00912[39m   [38;5;144malpha[39m   [38;5;144mdelta
[38;2;145;100;200m00913 =============[39m|
00914 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00915 warn delta
[39m[49m00916 epsilon
             00917 [31mzeta[39m mu beta
00918 [32meta[39m eta eta
00919 [33mtheta[39m beta mu
[1m[34m00920[0m[39m[49m iota done
[97m[41m00921 FAIL kappa
[38;5;154m[49m00922[39m   [38;5;154mlambda[39m  [38;5;154mbeta
[38;2;155;100;200m00923 =======================[39m|
00924 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00925 warn beta
[39m[49m00926 gamma
           00927 [34mdelta[39m kappa delta
00928 [35mepsilon[39m epsilon iota
00929 [36mzeta[39m mu beta
[1m[37m00930[0m[39m[49m eta done
[97m[41m00931 FAIL theta
[38;5;164m[49m00932[39m   [38;5;164miota[39m    [38;5;164mmu
[38;2;165;100;200m00933 =================================[39m|
00934 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00935 warn mu
[39m[49m00936 alpha
           00937 [37mbeta[39m theta zeta
00938 [31mgamma[39m gamma lambda
00939 [32mdelta[39m kappa delta
[1m[33m00940[0m[39m[49m epsilon done
[97m[41m00941 FAIL zeta
[38;5;174m[49m00942[39m   [38;5;174meta[39m     [38;5;174mkappa
[38;2;175;100;200m00943 ===========================================[39m|
00944 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00945 warn kappa
[39m[49m00946 lambda
            00947 [33mmu[39m zeta theta
00948 [34malpha[39m alpha alpha
00949 [35mbeta[39m theta zeta
[1m[36m00950[0m[39m[49m gamma done
[97m[41m00951 FAIL delta
[38;5;184m[49m00952[39m   [38;5;184mepsilon[39m [38;5;184mtheta
[38;2;185;100;200m00953 =====================================================[39m|
00954 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00955 warn theta
[39m[49m00956 iota
          00957 [36mkappa[39m delta kappa
00958 [37mlambda[39m lambda gamma
00959 [31mmu[39m zeta theta
[1m[32m00960[0m[39m[49m alpha done
[97m[41m00961 FAIL beta
[38;5;194m[49m00962[39m   [38;5;194mgamma[39m   [38;5;194mzeta
[38;2;195;100;200m00963 ===============================================================[39m|
00964 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00965 warn zeta
[39m[49m00966 eta
         00967 [32mtheta[39m beta mu
00968 [33miota[39m iota epsilon
00969 [34mkappa[39m delta kappa
[1m[35m00970[0m[39m[49m lambda done
[97m[41m00971 FAIL mu
[38;5;204m[49m00972[39m   [38;5;204malpha[39m   [38;5;204mdelta
[38;2;205;100;200m00973 =========================================================================[39m|
00974 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00975 warn delta
[39m[49m00976 epsilon
             00977 [35mzeta[39m mu beta
00978 [36meta[39m eta eta
00979 [37mtheta[39m beta mu
[1m[31m00980[0m[39m[49m iota done
[97m[41m00981 FAIL kappa
[38;5;214m[49m00982[39m   [38;5;214mlambda[39m  [38;5;214mbeta
[38;2;215;100;200m00983 ==========================================================================
=========[39m|
00984 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00985 warn beta
[39m[49m00986 gamma
           00987 [31mdelta[39m kappa delta
00988 [32mepsilon[39m epsilon iota
00989 [33mzeta[39m mu beta
[1m[34m00990[0m[39m[49m eta done
[97m[41m00991 FAIL theta
[38;5;224m[49m00992[39m   [38;5;224miota[39m    [38;5;224mmu
[38;2;225;100;200m00993 ==========================================================================
===================[39m|
00994 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m00995 warn mu
[39m[49m00996 alpha
           00997 [34mbeta[39m theta zeta
00998 [35mgamma[39m gamma lambda
00999 [36mdelta[39m kappa delta
[1m[37m01000[0m[39m[49m epsilon done
[97m[41m01001 FAIL zeta
[38;5;234m[49m01002[39m   [38;5;234meta[39m     [38;5;234mkappa
[38;2;235;100;200m01003 ==========================================================================
=============================[39m|
01004 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01005 warn kappa
[39m[49m01006 lambda
            01007 [37mmu[39m zeta theta
01008 [31malpha[39m alpha alpha
01009 [32mbeta[39m theta zeta
[1m[33m01010[0m[39m[49m gamma done
[97m[41m01011 FAIL delta
[38;5;244m[49m01012[39m   [38;5;244mepsilon[39m [38;5;244mtheta
[38;2;245;100;200m01013 ==========================================================================
=======================================[39m|
01014 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01015 warn theta
[39m[49m01016 iota
          01017 [33mkappa[39m delta kappa
01018 [34mlambda[39m lambda gamma
01019 [35mmu[39m zeta theta
[1m[36m01020[0m[39m[49m alpha done
[97m[41m01021 FAIL beta
[38;5;254m[49m01022[39m   [38;5;254mgamma[39m   [38;5;254mzeta
[38;2;255;100;200m01023 ==========================================================================
=================================================[39m|
01024 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01025 warn zeta
[39m[49m01026 eta
         01027 [36mtheta[39m beta mu
01028 [37miota[39m iota epsilon
01029 [31mkappa[39m delta kappa
[1m[32m01030[0m[39m[49m lambda done
[97m[41m01031 FAIL mu
[38;5;8m[49m01032[39m   [38;5;8malpha[39m   [38;5;8mdelta
[38;2;9;100;200m01033 ==========================================================================
===========================================================[39m|
01034 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01035 warn delta
[39m[49m01036 epsilon
             01037 [32mzeta[39m mu beta
01038 [33meta[39m eta eta
01039 [34mtheta[39m beta mu
[1m[35m01040[0m[39m[49m iota done
[97m[41m01041 FAIL kappa
[38;5;18m[49m01042[39m   [38;5;18mlambda[39m  [38;5;18mbeta
[38;2;19;100;200m01043 ==========================================================================
=====================================================================[39m|
01044 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01045 warn beta
[39m[49m01046 gamma
           01047 [35mdelta[39m kappa delta
01048 [36mepsilon[39m epsilon iota
01049 [37mzeta[39m mu beta
[1m[31m01050[0m[39m[49m eta done
[97m[41m01051 FAIL theta
[38;5;28m[49m01052[39m   [38;5;28miota[39m    [38;5;28mmu
[38;2;29;100;200m01053 ===[39m|
01054 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01055 warn mu
[39m[49m01056 alpha
           01057 [31mbeta[39m theta zeta
01058 [32mgamma[39m gamma lambda
01059 [33mdelta[39m kappa delta
[1m[34m01060[0m[39m[49m epsilon done
[97m[41m01061 FAIL zeta
[38;5;38m[49m01062[39m   [38;5;38meta[39m     [38;5;38mkappa
[38;2;39;100;200m01063 =============[39m|
01064 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01065 warn kappa
[39m[49m01066 lambda
            01067 [34mmu[39m zeta theta
01068 [35malpha[39m alpha alpha
01069 [36mbeta[39m theta zeta
[1m[37m01070[0m[39m[49m gamma done
[97m[41m01071 FAIL delta
[38;5;48m[49m01072[39m   [38;5;48mepsilon[39m [38;5;48mtheta
[38;2;49;100;200m01073 =======================[39m|
01074 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01075 warn theta
[39m[49m01076 iota
          01077 [37mkappa[39m delta kappa
01078 [31mlambda[39m lambda gamma
01079 [32mmu[39m zeta theta
[1m[33m01080[0m[39m[49m alpha done
[97m[41m01081 FAIL beta
[38;5;58m[49m01082[39m   [38;5;58mgamma[39m   [38;5;58mzeta
[38;2;59;100;200m01083 =================================[39m|
01084 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01085 warn zeta
[39m[49m01086 eta
         01087 [33mtheta[39m beta mu
01088 [34miota[39m iota epsilon
01089 [35mkappa[39m delta kappa
[1m[36m01090[0m[39m[49m lambda done
[97m[41m01091 FAIL mu
[38;5;68m[49m01092[39m   [38;5;68malpha[39m   [38;5;68mdelta
[38;2;69;100;200m01093 ===========================================[39m|
01094 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01095 warn delta
[39m[49m01096 epsilon
             01097 [36mzeta[39m mu beta
01098 [37meta[39m eta eta
01099 [31mtheta[39m beta mu
[1m[32m01100[0m[39m[49m iota done
[97m[41m01101 FAIL kappa
[38;5;78m[49m01102[39m   [38;5;78mlambda[39m  [38;5;78mbeta
[38;2;79;100;200m01103 =====================================================[39m|
01104 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01105 warn beta
[39m[49m01106 gamma
           01107 [32mdelta[39m kappa delta
01108 [33mepsilon[39m epsilon iota
01109 [34mzeta[39m mu beta
[1m[35m01110[0m[39m[49m eta done
[97m[41m01111 FAIL theta
[38;5;88m[49m01112[39m   [38;5;88miota[39m    [38;5;88mmu
[38;2;89;100;200m01113 ===============================================================[39m|
01114 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01115 warn mu
[39m[49m01116 alpha
           01117 [35mbeta[39m theta zeta
01118 [36mgamma[39m gamma lambda
01119 [37mdelta[39m kappa delta
[1m[31m01120[0m[39m[49m epsilon done
[97m[41m01121 FAIL zeta
[38;5;98m[49m01122[39m   [38;5;98meta[39m     [38;5;98mkappa
[38;2;99;100;200m01123 =========================================================================[39m|
01124 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01125 warn kappa
[39m[49m01126 lambda
            01127 [31mmu[39m zeta theta
01128 [32malpha[39m alpha alpha
01129 [33mbeta[39m theta zeta
[1m[34m01130[0m[39m[49m gamma done
[97m[41m01131 FAIL delta
[38;5;108m[49m01132[39m   [38;5;108mepsilon[39m [38;5;108mtheta
[38;2;109;100;200m01133 ==========================================================================
=========[39m|
01134 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01135 warn theta
[39m[49m01136 iota
          01137 [34mkappa[39m delta kappa
01138 [35mlambda[39m lambda gamma
01139 [36mmu[39m zeta theta
[1m[37m01140[0m[39m[49m alpha done
[97m[41m01141 FAIL beta
[38;5;118m[49m01142[39m   [38;5;118mgamma[39m   [38;5;118mzeta
[38;2;119;100;200m01143 ==========================================================================
===================[39m|
01144 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01145 warn zeta
[39m[49m01146 eta
         01147 [37mtheta[39m beta mu
01148 [31miota[39m iota epsilon
01149 [32mkappa[39m delta kappa
[1m[33m01150[0m[39m[49m lambda done
[97m[41m01151 FAIL mu
[38;5;128m[49m01152[39m   [38;5;128malpha[39m   [38;5;128mdelta
[38;2;129;100;200m01153 ==========================================================================
=============================[39m|
01154 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01155 warn delta
[39m[49m01156 epsilon
             01157 [33mzeta[39m mu beta
01158 [34meta[39m eta eta
01159 [35mtheta[39m beta mu
[1m[36m01160[0m[39m[49m iota done
[97m[41m01161 FAIL kappa
[38;5;138m[49m01162[39m   [38;5;138mlambda[39m  [38;5;138mbeta
[38;2;139;100;200m01163 ==========================================================================
=======================================[39m|
01164 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01165 warn beta
[39m[49m01166 gamma
           01167 [36mdelta[39m kappa delta
01168 [37mepsilon[39m epsilon iota
01169 [31mzeta[39m mu beta
[1m[32m01170[0m[39m[49m eta done
[97m[41m01171 FAIL theta
[38;5;148m[49m01172[39m   [38;5;148miota[39m    [38;5;148mmu
[38;2;149;100;200m01173 ==========================================================================
=================================================[39m|
01174 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01175 warn mu
[39m[49m01176 alpha
           01177 [32mbeta[39m theta zeta
01178 [33mgamma[39m gamma lambda
01179 [34mdelta[39m kappa delta
[1m[35m01180[0m[39m[49m epsilon done
[97m[41m01181 FAIL zeta
[38;5;158m[49m01182[39m   [38;5;158meta[39m     [38;5;158mkappa
[38;2;159;100;200m01183 ==========================================================================
===========================================================[39m|
01184 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01185 warn kappa
[39m[49m01186 lambda
            01187 [35mmu[39m zeta theta
01188 [36malpha[39m alpha alpha
01189 [37mbeta[39m theta zeta
[1m[31m01190[0m[39m[49m gamma done
[97m[41m01191 FAIL delta
[38;5;168m[49m01192[39m   [38;5;168mepsilon[39m [38;5;168mtheta
[38;2;169;100;200m01193 ==========================================================================
=====================================================================[39m|
01194 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01195 warn theta
[39m[49m01196 iota
          01197 [31mkappa[39m delta kappa
01198 [32mlambda[39m lambda gamma
01199 [33mmu[39m zeta theta
[1m[34m01200[0m[39m[49m alpha done
[97m[41m01201 FAIL beta
[38;5;178m[49m01202[39m   [38;5;178mgamma[39m   [38;5;178mzeta
[38;2;179;100;200m01203 ===[39m|
01204 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01205 warn zeta
[39m[49m01206 eta
         01207 [34mtheta[39m beta mu
01208 [35miota[39m iota epsilon
01209 [36mkappa[39m delta kappa
[1m[37m01210[0m[39m[49m lambda done
[97m[41m01211 FAIL mu
[38;5;188m[49m01212[39m   [38;5;188malpha[39m   [38;5;188mdelta
[38;2;189;100;200m01213 =============[39m|
01214 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01215 warn delta
[39m[49m01216 epsilon
             01217 [37mzeta[39m mu beta
01218 [31meta[39m eta eta
01219 [32mtheta[39m beta mu
[1m[33m01220[0m[39m[49m iota done
[97m[41m01221 FAIL kappa
[38;5;198m[49m01222[39m   [38;5;198mlambda[39m  [38;5;198mbeta
[38;2;199;100;200m01223 =======================[39m|
01224 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01225 warn beta
[39m[49m01226 gamma
           01227 [33mdelta[39m kappa delta
01228 [34mepsilon[39m epsilon iota
01229 [35mzeta[39m mu beta
[1m[36m01230[0m[39m[49m eta done
[97m[41m01231 FAIL theta
[38;5;208m[49m01232[39m   [38;5;208miota[39m    [38;5;208mmu
[38;2;209;100;200m01233 =================================[39m|
01234 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01235 warn mu
[39m[49m01236 alpha
           01237 [36mbeta[39m theta zeta
01238 [37mgamma[39m gamma lambda
01239 [31mdelta[39m kappa delta
[1m[32m01240[0m[39m[49m epsilon done
[97m[41m01241 FAIL zeta
[38;5;218m[49m01242[39m   [38;5;218meta[39m     [38;5;218mkappa
[38;2;219;100;200m01243 ===========================================[39m|
01244 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01245 warn kappa
[39m[49m01246 lambda
            01247 [32mmu[39m zeta theta
01248 [33malpha[39m alpha alpha
01249 [34mbeta[39m theta zeta
[1m[35m01250[0m[39m[49m gamma done
[97m[41m01251 FAIL delta
[38;5;228m[49m01252[39m   [38;5;228mepsilon[39m [38;5;228mtheta
[38;2;229;100;200m01253 =====================================================[39m|
01254 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01255 warn theta
[39m[49m01256 iota
          01257 [35mkappa[39m delta kappa
01258 [36mlambda[39m lambda gamma
01259 [37mmu[39m zeta theta
[1m[31m01260[0m[39m[49m alpha done
[97m[41m01261 FAIL beta
[38;5;238m[49m01262[39m   [38;5;238mgamma[39m   [38;5;238mzeta
[38;2;239;100;200m01263 ===============================================================[39m|
01264 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01265 warn zeta
[39m[49m01266 eta
         01267 [31mtheta[39m beta mu
01268 [32miota[39m iota epsilon
01269 [33mkappa[39m delta kappa
[1m[34m01270[0m[39m[49m lambda done
[97m[41m01271 FAIL mu
[38;5;248m[49m01272[39m   [38;5;248malpha[39m   [38;5;248mdelta
[38;2;249;100;200m01273 =========================================================================[39m|
01274 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01275 warn delta
[39m[49m01276 epsilon
             01277 [34mzeta[39m mu beta
01278 [35meta[39m eta eta
01279 [36mtheta[39m beta mu
[1m[37m01280[0m[39m[49m iota done
[97m[41m01281 FAIL kappa
[38;5;2m[49m01282[39m   [38;5;2mlambda[39m  [38;5;2mbeta
[38;2;3;100;200m01283 ==========================================================================
=========[39m|
01284 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01285 warn beta
[39m[49m01286 gamma
           01287 [37mdelta[39m kappa delta
01288 [31mepsilon[39m epsilon iota
01289 [32mzeta[39m mu beta
[1m[33m01290[0m[39m[49m eta done
[97m[41m01291 FAIL theta
[38;5;12m[49m01292[39m   [38;5;12miota[39m    [38;5;12mmu
[38;2;13;100;200m01293 ==========================================================================
===================[39m|
01294 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01295 warn mu
[39m[49m01296 alpha
           01297 [33mbeta[39m theta zeta
01298 [34mgamma[39m gamma lambda
01299 [35mdelta[39m kappa delta
[1m[36m01300[0m[39m[49m epsilon done
[97m[41m01301 FAIL zeta
[38;5;22m[49m01302[39m   [38;5;22meta[39m     [38;5;22mkappa
[38;2;23;100;200m01303 ==========================================================================
=============================[39m|
01304 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01305 warn kappa
[39m[49m01306 lambda
            01307 [36mmu[39m zeta theta
01308 [37malpha[39m alpha alpha
01309 [31mbeta[39m theta zeta
[1m[32m01310[0m[39m[49m gamma done
[97m[41m01311 FAIL delta
[38;5;32m[49m01312[39m   [38;5;32mepsilon[39m [38;5;32mtheta
[38;2;33;100;200m01313 ==========================================================================
=======================================[39m|
01314 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01315 warn theta
[39m[49m01316 iota
          01317 [32mkappa[39m delta kappa
01318 [33mlambda[39m lambda gamma
01319 [34mmu[39m zeta theta
[1m[35m01320[0m[39m[49m alpha done
[97m[41m01321 FAIL beta
[38;5;42m[49m01322[39m   [38;5;42mgamma[39m   [38;5;42mzeta
[38;2;43;100;200m01323 ==========================================================================
=================================================[39m|
01324 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01325 warn zeta
[39m[49m01326 eta
         01327 [35mtheta[39m beta mu
01328 [36miota[39m iota epsilon
01329 [37mkappa[39m delta kappa
[1m[31m01330[0m[39m[49m lambda done
[97m[41m01331 FAIL mu
[38;5;52m[49m01332[39m   [38;5;52malpha[39m   [38;5;52mdelta
[38;2;53;100;200m01333 ==========================================================================
===========================================================[39m|
01334 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01335 warn delta
[39m[49m01336 epsilon
             01337 [31mzeta[39m mu beta
01338 [32meta[39m eta eta
01339 [33mtheta[39m beta mu
[1m[34m01340[0m[39m[49m iota done
[97m[41m01341 FAIL kappa
[38;5;62m[49m01342[39m   [38;5;62mlambda[39m  [38;5;62mbeta
[38;2;63;100;200m01343 ==========================================================================
=====================================================================[39m|
01344 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01345 warn beta
[39m[49m01346 gamma
           01347 [34mdelta[39m kappa delta
01348 [35mepsilon[39m epsilon iota
01349 [36mzeta[39m mu beta
[1m[37m01350[0m[39m[49m eta done
[97m[41m01351 FAIL theta
[38;5;72m[49m01352[39m   [38;5;72miota[39m    [38;5;72mmu
[38;2;73;100;200m01353 ===[39m|
01354 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01355 warn mu
[39m[49m01356 alpha
           01357 [37mbeta[39m theta zeta
01358 [31mgamma[39m gamma lambda
01359 [32mdelta[39m kappa delta
[1m[33m01360[0m[39m[49m epsilon done
[97m[41m01361 FAIL zeta
[38;5;82m[49m01362[39m   [38;5;82meta[39m     [38;5;82mkappa
[38;2;83;100;200m01363 =============[39m|
01364 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01365 warn kappa
[39m[49m01366 lambda
            01367 [33mmu[39m zeta theta
01368 [34malpha[39m alpha alpha
01369 [35mbeta[39m theta zeta
[1m[36m01370[0m[39m[49m gamma done
[97m[41m01371 FAIL delta
[38;5;92m[49m01372[39m   [38;5;92mepsilon[39m [38;5;92mtheta
[38;2;93;100;200m01373 =======================[39m|
01374 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01375 warn theta
[39m[49m01376 iota
          01377 [36mkappa[39m delta kappa
01378 [37mlambda[39m lambda gamma
01379 [31mmu[39m zeta theta
[1m[32m01380[0m[39m[49m alpha done
[97m[41m01381 FAIL beta
[38;5;102m[49m01382[39m   [38;5;102mgamma[39m   [38;5;102mzeta
[38;2;103;100;200m01383 =================================[39m|
01384 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01385 warn zeta
[39m[49m01386 eta
         01387 [32mtheta[39m beta mu
01388 [33miota[39m iota epsilon
01389 [34mkappa[39m delta kappa
[1m[35m01390[0m[39m[49m lambda done
[97m[41m01391 FAIL mu
[38;5;112m[49m01392[39m   [38;5;112malpha[39m   [38;5;112mdelta
[38;2;113;100;200m01393 ===========================================[39m|
01394 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01395 warn delta
[39m[49m01396 epsilon
             01397 [35mzeta[39m mu beta
01398 [36meta[39m eta eta
01399 [37mtheta[39m beta mu
[1m[31m01400[0m[39m[49m iota done
[97m[41m01401 FAIL kappa
[38;5;122m[49m01402[39m   [38;5;122mlambda[39m  [38;5;122mbeta
[38;2;123;100;200m01403 =====================================================[39m|
01404 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01405 warn beta
[39m[49m01406 gamma
           01407 [31mdelta[39m kappa delta
01408 [32mepsilon[39m epsilon iota
01409 [33mzeta[39m mu beta
[1m[34m01410[0m[39m[49m eta done
[97m[41m01411 FAIL theta
[38;5;132m[49m01412[39m   [38;5;132miota[39m    [38;5;132mmu
[38;2;133;100;200m01413 ===============================================================[39m|
01414 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01415 warn mu
[39m[49m01416 alpha
           01417 [34mbeta[39m theta zeta
01418 [35mgamma[39m gamma lambda
01419 [36mdelta[39m kappa delta
[1m[37m01420[0m[39m[49m epsilon done
[97m[41m01421 FAIL zeta
[38;5;142m[49m01422[39m   [38;5;142meta[39m     [38;5;142mkappa
[38;2;143;100;200m01423 =========================================================================[39m|
01424 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01425 warn kappa
[39m[49m01426 lambda
            01427 [37mmu[39m zeta theta
01428 [31malpha[39m alpha alpha
01429 [32mbeta[39m theta zeta
[1m[33m01430[0m[39m[49m gamma done
[97m[41m01431 FAIL delta
[38;5;152m[49m01432[39m   [38;5;152mepsilon[39m [38;5;152mtheta
[38;2;153;100;200m01433 ==========================================================================
=========[39m|
01434 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01435 warn theta
[39m[49m01436 iota
          01437 [33mkappa[39m delta kappa
01438 [34mlambda[39m lambda gamma
01439 [35mmu[39m zeta theta
[1m[36m01440[0m[39m[49m alpha done
[97m[41m01441 FAIL beta
[38;5;162m[49m01442[39m   [38;5;162mgamma[39m   [38;5;162mzeta
[38;2;163;100;200m01443 ==========================================================================
===================[39m|
01444 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01445 warn zeta
[39m[49m01446 eta
         01447 [36mtheta[39m beta mu
01448 [37miota[39m iota epsilon
01449 [31mkappa[39m delta kappa
[1m[32m01450[0m[39m[49m lambda done
[97m[41m01451 FAIL mu
[38;5;172m[49m01452[39m   [38;5;172malpha[39m   [38;5;172mdelta
[38;2;173;100;200m01453 ==========================================================================
=============================[39m|
01454 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01455 warn delta
[39m[49m01456 epsilon
             01457 [32mzeta[39m mu beta
01458 [33meta[39m eta eta
01459 [34mtheta[39m beta mu
[1m[35m01460[0m[39m[49m iota done
[97m[41m01461 FAIL kappa
[38;5;182m[49m01462[39m   [38;5;182mlambda[39m  [38;5;182mbeta
[38;2;183;100;200m01463 ==========================================================================
=======================================[39m|
01464 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01465 warn beta
[39m[49m01466 gamma
           01467 [35mdelta[39m kappa delta
01468 [36mepsilon[39m epsilon iota
01469 [37mzeta[39m mu beta
[1m[31m01470[0m[39m[49m eta done
[97m[41m01471 FAIL theta
[38;5;192m[49m01472[39m   [38;5;192miota[39m    [38;5;192mmu
[38;2;193;100;200m01473 ==========================================================================
=================================================[39m|
01474 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01475 warn mu
[39m[49m01476 alpha
           01477 [31mbeta[39m theta zeta
01478 [32mgamma[39m gamma lambda
01479 [33mdelta[39m kappa delta
[1m[34m01480[0m[39m[49m epsilon done
[97m[41m01481 FAIL zeta
[38;5;202m[49m01482[39m   [38;5;202meta[39m     [38;5;202mkappa
[38;2;203;100;200m01483 ==========================================================================
===========================================================[39m|
01484 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01485 warn kappa
[39m[49m01486 lambda
            01487 [34mmu[39m zeta theta
01488 [35malpha[39m alpha alpha
01489 [36mbeta[39m theta zeta
[1m[37m01490[0m[39m[49m gamma done
[97m[41m01491 FAIL delta
[38;5;212m[49m01492[39m   [38;5;212mepsilon[39m [38;5;212mtheta
[38;2;213;100;200m01493 ==========================================================================
=====================================================================[39m|
01494 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01495 warn theta
[39m[49m01496 iota
          01497 [37mkappa[39m delta kappa
01498 [31mlambda[39m lambda gamma
01499 [32mmu[39m zeta theta
[1m[33m01500[0m[39m[49m alpha done
[97m[41m01501 FAIL beta
[38;5;222m[49m01502[39m   [38;5;222mgamma[39m   [38;5;222mzeta
[38;2;223;100;200m01503 ===[39m|
01504 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01505 warn zeta
[39m[49m01506 eta
         01507 [33mtheta[39m beta mu
01508 [34miota[39m iota epsilon
01509 [35mkappa[39m delta kappa
[1m[36m01510[0m[39m[49m lambda done
[97m[41m01511 FAIL mu
[38;5;232m[49m01512[39m   [38;5;232malpha[39m   [38;5;232mdelta
[38;2;233;100;200m01513 =============[39m|
01514 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01515 warn delta
[39m[49m01516 epsilon
             01517 [36mzeta[39m mu beta
01518 [37meta[39m eta eta
01519 [31mtheta[39m beta mu
[1m[32m01520[0m[39m[49m iota done
[97m[41m01521 FAIL kappa
[38;5;242m[49m01522[39m   [38;5;242mlambda[39m  [38;5;242mbeta
[38;2;243;100;200m01523 =======================[39m|
01524 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01525 warn beta
[39m[49m01526 gamma
           01527 [32mdelta[39m kappa delta
01528 [33mepsilon[39m epsilon iota
01529 [34mzeta[39m mu beta
[1m[35m01530[0m[39m[49m eta done
[97m[41m01531 FAIL theta
[38;5;252m[49m01532[39m   [38;5;252miota[39m    [38;5;252mmu
[38;2;253;100;200m01533 =================================[39m|
01534 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01535 warn mu
[39m[49m01536 alpha
           01537 [35mbeta[39m theta zeta
01538 [36mgamma[39m gamma lambda
01539 [37mdelta[39m kappa delta
[1m[31m01540[0m[39m[49m epsilon done
[97m[41m01541 FAIL zeta
[38;5;6m[49m01542[39m   [38;5;6meta[39m     [38;5;6mkappa
[38;2;7;100;200m01543 ===========================================[39m|
01544 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01545 warn kappa
[39m[49m01546 lambda
            01547 [31mmu[39m zeta theta
01548 [32malpha[39m alpha alpha
01549 [33mbeta[39m theta zeta
[1m[34m01550[0m[39m[49m gamma done
[97m[41m01551 FAIL delta
[38;5;16m[49m01552[39m   [38;5;16mepsilon[39m [38;5;16mtheta
[38;2;17;100;200m01553 =====================================================[39m|
01554 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01555 warn theta
[39m[49m01556 iota
          01557 [34mkappa[39m delta kappa
01558 [35mlambda[39m lambda gamma
01559 [36mmu[39m zeta theta
[1m[37m01560[0m[39m[49m alpha done
[97m[41m01561 FAIL beta
[38;5;26m[49m01562[39m   [38;5;26mgamma[39m   [38;5;26mzeta
[38;2;27;100;200m01563 ===============================================================[39m|
01564 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01565 warn zeta
[39m[49m01566 eta
         01567 [37mtheta[39m beta mu
01568 [31miota[39m iota epsilon
01569 [32mkappa[39m delta kappa
[1m[33m01570[0m[39m[49m lambda done
[97m[41m01571 FAIL mu
[38;5;36m[49m01572[39m   [38;5;36malpha[39m   [38;5;36mdelta
[38;2;37;100;200m01573 =========================================================================[39m|
01574 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01575 warn delta
[39m[49m01576 epsilon
             01577 [33mzeta[39m mu beta
01578 [34meta[39m eta eta
01579 [35mtheta[39m beta mu
[1m[36m01580[0m[39m[49m iota done
[97m[41m01581 FAIL kappa
[38;5;46m[49m01582[39m   [38;5;46mlambda[39m  [38;5;46mbeta
[38;2;47;100;200m01583 ==========================================================================
=========[39m|
01584 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01585 warn beta
[39m[49m01586 gamma
           01587 [36mdelta[39m kappa delta
01588 [37mepsilon[39m epsilon iota
01589 [31mzeta[39m mu beta
[1m[32m01590[0m[39m[49m eta done
[97m[41m01591 FAIL theta
[38;5;56m[49m01592[39m   [38;5;56miota[39m    [38;5;56mmu
[38;2;57;100;200m01593 ==========================================================================
===================[39m|
01594 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01595 warn mu
[39m[49m01596 alpha
           01597 [32mbeta[39m theta zeta
01598 [33mgamma[39m gamma lambda
01599 [34mdelta[39m kappa delta
[1m[35m01600[0m[39m[49m epsilon done
[97m[41m01601 FAIL zeta
[38;5;66m[49m01602[39m   [38;5;66meta[39m     [38;5;66mkappa
[38;2;67;100;200m01603 ==========================================================================
=============================[39m|
01604 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01605 warn kappa
[39m[49m01606 lambda
            01607 [35mmu[39m zeta theta
01608 [36malpha[39m alpha alpha
01609 [37mbeta[39m theta zeta
[1m[31m01610[0m[39m[49m gamma done
[97m[41m01611 FAIL delta
[38;5;76m[49m01612[39m   [38;5;76mepsilon[39m [38;5;76mtheta
[38;2;77;100;200m01613 ==========================================================================
=======================================[39m|
01614 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01615 warn theta
[39m[49m01616 iota
          01617 [31mkappa[39m delta kappa
01618 [32mlambda[39m lambda gamma
01619 [33mmu[39m zeta theta
[1m[34m01620[0m[39m[49m alpha done
[97m[41m01621 FAIL beta
[38;5;86m[49m01622[39m   [38;5;86mgamma[39m   [38;5;86mzeta
[38;2;87;100;200m01623 ==========================================================================
=================================================[39m|
01624 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01625 warn zeta
[39m[49m01626 eta
         01627 [34mtheta[39m beta mu
01628 [35miota[39m iota epsilon
01629 [36mkappa[39m delta kappa
[1m[37m01630[0m[39m[49m lambda done
[97m[41m01631 FAIL mu
[38;5;96m[49m01632[39m   [38;5;96malpha[39m   [38;5;96mdelta
[38;2;97;100;200m01633 ==========================================================================
===========================================================[39m|
01634 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01635 warn delta
[39m[49m01636 epsilon
             01637 [37mzeta[39m mu beta
01638 [31meta[39m eta eta
01639 [32mtheta[39m beta mu
[1m[33m01640[0m[39m[49m iota done
[97m[41m01641 FAIL kappa
[38;5;106m[49m01642[39m   [38;5;106mlambda[39m  [38;5;106mbeta
[38;2;107;100;200m01643 ==========================================================================
=====================================================================[39m|
01644 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01645 warn beta
[39m[49m01646 gamma
           01647 [33mdelta[39m kappa delta
01648 [34mepsilon[39m epsilon iota
01649 [35mzeta[39m mu beta
[1m[36m01650[0m[39m[49m eta done
[97m[41m01651 FAIL theta
[38;5;116m[49m01652[39m   [38;5;116miota[39m    [38;5;116mmu
[38;2;117;100;200m01653 ===[39m|
01654 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01655 warn mu
[39m[49m01656 alpha
           01657 [36mbeta[39m theta zeta
01658 [37mgamma[39m gamma lambda
01659 [31mdelta[39m kappa delta
[1m[32m01660[0m[39m[49m epsilon done
[97m[41m01661 FAIL zeta
[38;5;126m[49m01662[39m   [38;5;126meta[39m     [38;5;126mkappa
[38;2;127;100;200m01663 =============[39m|
01664 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01665 warn kappa
[39m[49m01666 lambda
            01667 [32mmu[39m zeta theta
01668 [33malpha[39m alpha alpha
01669 [34mbeta[39m theta zeta
[1m[35m01670[0m[39m[49m gamma done
[97m[41m01671 FAIL delta
[38;5;136m[49m01672[39m   [38;5;136mepsilon[39m [38;5;136mtheta
[38;2;137;100;200m01673 =======================[39m|
01674 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01675 warn theta
[39m[49m01676 iota
          01677 [35mkappa[39m delta kappa
01678 [36mlambda[39m lambda gamma
01679 [37mmu[39m zeta theta
[1m[31m01680[0m[39m[49m alpha done
[97m[41m01681 FAIL beta
[38;5;146m[49m01682[39m   [38;5;146mgamma[39m   [38;5;146mzeta
[38;2;147;100;200m01683 =================================[39m|
01684 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01685 warn zeta
[39m[49m01686 eta
         01687 [31mtheta[39m beta mu
01688 [32miota[39m iota epsilon
01689 [33mkappa[39m delta kappa
[1m[34m01690[0m[39m[49m lambda done
[97m[41m01691 FAIL mu
[38;5;156m[49m01692[39m   [38;5;156malpha[39m   [38;5;156mdelta
[38;2;157;100;200m01693 ===========================================[39m|
01694 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01695 warn delta
[39m[49m01696 epsilon
             01697 [34mzeta[39m mu beta
01698 [35meta[39m eta eta
01699 [36mtheta[39m beta mu
[1m[37m01700[0m[39m[49m iota done
[97m[41m01701 FAIL kappa
[38;5;166m[49m01702[39m   [38;5;166mlambda[39m  [38;5;166mbeta
[38;2;167;100;200m01703 =====================================================[39m|
01704 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01705 warn beta
[39m[49m01706 gamma
           01707 [37mdelta[39m kappa delta
01708 [31mepsilon[39m epsilon iota
01709 [32mzeta[39m mu beta
[1m[33m01710[0m[39m[49m eta done
[97m[41m01711 FAIL theta
[38;5;176m[49m01712[39m   [38;5;176miota[39m    [38;5;176mmu
[38;2;177;100;200m01713 ===============================================================[39m|
01714 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01715 warn mu
[39m[49m01716 alpha
           01717 [33mbeta[39m theta zeta
01718 [34mgamma[39m gamma lambda
01719 [35mdelta[39m kappa delta
[1m[36m01720[0m[39m[49m epsilon done
[97m[41m01721 FAIL zeta
[38;5;186m[49m01722[39m   [38;5;186meta[39m     [38;5;186mkappa
[38;2;187;100;200m01723 =========================================================================[39m|
01724 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01725 warn kappa
[39m[49m01726 lambda
            01727 [36mmu[39m zeta theta
01728 [37malpha[39m alpha alpha
01729 [31mbeta[39m theta zeta
[1m[32m01730[0m[39m[49m gamma done
[97m[41m01731 FAIL delta
[38;5;196m[49m01732[39m   [38;5;196mepsilon[39m [38;5;196mtheta
[38;2;197;100;200m01733 ==========================================================================
=========[39m|
01734 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01735 warn theta
[39m[49m01736 iota
          01737 [32mkappa[39m delta kappa
01738 [33mlambda[39m lambda gamma
01739 [34mmu[39m zeta theta
[1m[35m01740[0m[39m[49m alpha done
[97m[41m01741 FAIL beta
[38;5;206m[49m01742[39m   [38;5;206mgamma[39m   [38;5;206mzeta
[38;2;207;100;200m01743 ==========================================================================
===================[39m|
01744 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01745 warn zeta
[39m[49m01746 eta
         01747 [35mtheta[39m beta mu
01748 [36miota[39m iota epsilon
01749 [37mkappa[39m delta kappa
[1m[31m01750[0m[39m[49m lambda done
[97m[41m01751 FAIL mu
[38;5;216m[49m01752[39m   [38;5;216malpha[39m   [38;5;216mdelta
[38;2;217;100;200m01753 ==========================================================================
=============================[39m|
01754 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01755 warn delta
[39m[49m01756 epsilon
             01757 [31mzeta[39m mu beta
01758 [32meta[39m eta eta
01759 [33mtheta[39m beta mu
[1m[34m01760[0m[39m[49m iota done
[97m[41m01761 FAIL kappa
[38;5;226m[49m01762[39m   [38;5;226mlambda[39m  [38;5;226mbeta
[38;2;227;100;200m01763 ==========================================================================
=======================================[39m|
01764 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01765 warn beta
[39m[49m01766 gamma
           01767 [34mdelta[39m kappa delta
01768 [35mepsilon[39m epsilon iota
01769 [36mzeta[39m mu beta
[1m[37m01770[0m[39m[49m eta done
[97m[41m01771 FAIL theta
[38;5;236m[49m01772[39m   [38;5;236miota[39m    [38;5;236mmu
[38;2;237;100;200m01773 ==========================================================================
=================================================[39m|
01774 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01775 warn mu
[39m[49m01776 alpha
           01777 [37mbeta[39m theta zeta
01778 [31mgamma[39m gamma lambda
01779 [32mdelta[39m kappa delta
[1m[33m01780[0m[39m[49m epsilon done
[97m[41m01781 FAIL zeta
[38;5;246m[49m01782[39m   [38;5;246meta[39m     [38;5;246mkappa
[38;2;247;100;200m01783 ==========================================================================
===========================================================[39m|
01784 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01785 warn kappa
[39m[49m01786 lambda
            01787 [33mmu[39m zeta theta
01788 [34malpha[39m alpha alpha
01789 [35mbeta[39m theta zeta
[1m[36m01790[0m[39m[49m gamma done
[97m[41m01791 FAIL delta
[38;5;0m[49m01792[39m   [38;5;0mepsilon[39m [38;5;0mtheta
[38;2;1;100;200m01793 ==========================================================================
=====================================================================[39m|
01794 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01795 warn theta
[39m[49m01796 iota
          01797 [36mkappa[39m delta kappa
01798 [37mlambda[39m lambda gamma
01799 [31mmu[39m zeta theta
[1m[32m01800[0m[39m[49m alpha done
[97m[41m01801 FAIL beta
[38;5;10m[49m01802[39m   [38;5;10mgamma[39m   [38;5;10mzeta
[38;2;11;100;200m01803 ===[39m|
01804 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01805 warn zeta
[39m[49m01806 eta
         01807 [32mtheta[39m beta mu
01808 [33miota[39m iota epsilon
01809 [34mkappa[39m delta kappa
[1m[35m01810[0m[39m[49m lambda done
[97m[41m01811 FAIL mu
[38;5;20m[49m01812[39m   [38;5;20malpha[39m   [38;5;20mdelta
[38;2;21;100;200m01813 =============[39m|
01814 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01815 warn delta
[39m[49m01816 epsilon
             01817 [35mzeta[39m mu beta
01818 [36meta[39m eta eta
01819 [37mtheta[39m beta mu
[1m[31m01820[0m[39m[49m iota done
[97m[41m01821 FAIL kappa
[38;5;30m[49m01822[39m   [38;5;30mlambda[39m  [38;5;30mbeta
[38;2;31;100;200m01823 =======================[39m|
01824 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01825 warn beta
[39m[49m01826 gamma
           01827 [31mdelta[39m kappa delta
01828 [32mepsilon[39m epsilon iota
01829 [33mzeta[39m mu beta
[1m[34m01830[0m[39m[49m eta done
[97m[41m01831 FAIL theta
[38;5;40m[49m01832[39m   [38;5;40miota[39m    [38;5;40mmu
[38;2;41;100;200m01833 =================================[39m|
01834 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01835 warn mu
[39m[49m01836 alpha
           01837 [34mbeta[39m theta zeta
01838 [35mgamma[39m gamma lambda
01839 [36mdelta[39m kappa delta
[1m[37m01840[0m[39m[49m epsilon done
[97m[41m01841 FAIL zeta
[38;5;50m[49m01842[39m   [38;5;50meta[39m     [38;5;50mkappa
[38;2;51;100;200m01843 ===========================================[39m|
01844 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01845 warn kappa
[39m[49m01846 lambda
            01847 [37mmu[39m zeta theta
01848 [31malpha[39m alpha alpha
01849 [32mbeta[39m theta zeta
[1m[33m01850[0m[39m[49m gamma done
[97m[41m01851 FAIL delta
[38;5;60m[49m01852[39m   [38;5;60mepsilon[39m [38;5;60mtheta
[38;2;61;100;200m01853 =====================================================[39m|
01854 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01855 warn theta
[39m[49m01856 iota
          01857 [33mkappa[39m delta kappa
01858 [34mlambda[39m lambda gamma
01859 [35mmu[39m zeta theta
[1m[36m01860[0m[39m[49m alpha done
[97m[41m01861 FAIL beta
[38;5;70m[49m01862[39m   [38;5;70mgamma[39m   [38;5;70mzeta
[38;2;71;100;200m01863 ===============================================================[39m|
01864 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01865 warn zeta
[39m[49m01866 eta
         01867 [36mtheta[39m beta mu
01868 [37miota[39m iota epsilon
01869 [31mkappa[39m delta kappa
[1m[32m01870[0m[39m[49m lambda done
[97m[41m01871 FAIL mu
[38;5;80m[49m01872[39m   [38;5;80malpha[39m   [38;5;80mdelta
[38;2;81;100;200m01873 =========================================================================[39m|
01874 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01875 warn delta
[39m[49m01876 epsilon
             01877 [32mzeta[39m mu beta
01878 [33meta[39m eta eta
01879 [34mtheta[39m beta mu
[1m[35m01880[0m[39m[49m iota done
[97m[41m01881 FAIL kappa
[38;5;90m[49m01882[39m   [38;5;90mlambda[39m  [38;5;90mbeta
[38;2;91;100;200m01883 ==========================================================================
=========[39m|
01884 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01885 warn beta
[39m[49m01886 gamma
           01887 [35mdelta[39m kappa delta
01888 [36mepsilon[39m epsilon iota
01889 [37mzeta[39m mu beta
[1m[31m01890[0m[39m[49m eta done
[97m[41m01891 FAIL theta
[38;5;100m[49m01892[39m   [38;5;100miota[39m    [38;5;100mmu
[38;2;101;100;200m01893 ==========================================================================
===================[39m|
01894 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01895 warn mu
[39m[49m01896 alpha
           01897 [31mbeta[39m theta zeta
01898 [32mgamma[39m gamma lambda
01899 [33mdelta[39m kappa delta
[1m[34m01900[0m[39m[49m epsilon done
[97m[41m01901 FAIL zeta
[38;5;110m[49m01902[39m   [38;5;110meta[39m     [38;5;110mkappa
[38;2;111;100;200m01903 ==========================================================================
=============================[39m|
01904 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01905 warn kappa
[39m[49m01906 lambda
            01907 [34mmu[39m zeta theta
01908 [35malpha[39m alpha alpha
01909 [36mbeta[39m theta zeta
[1m[37m01910[0m[39m[49m gamma done
[97m[41m01911 FAIL delta
[38;5;120m[49m01912[39m   [38;5;120mepsilon[39m [38;5;120mtheta
[38;2;121;100;200m01913 ==========================================================================
=======================================[39m|
01914 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01915 warn theta
[39m[49m01916 iota
          01917 [37mkappa[39m delta kappa
01918 [31mlambda[39m lambda gamma
01919 [32mmu[39m zeta theta
[1m[33m01920[0m[39m[49m alpha done
[97m[41m01921 FAIL beta
[38;5;130m[49m01922[39m   [38;5;130mgamma[39m   [38;5;130mzeta
[38;2;131;100;200m01923 ==========================================================================
=================================================[39m|
01924 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01925 warn zeta
[39m[49m01926 eta
         01927 [33mtheta[39m beta mu
01928 [34miota[39m iota epsilon
01929 [35mkappa[39m delta kappa
[1m[36m01930[0m[39m[49m lambda done
[97m[41m01931 FAIL mu
[38;5;140m[49m01932[39m   [38;5;140malpha[39m   [38;5;140mdelta
[38;2;141;100;200m01933 ==========================================================================
===========================================================[39m|
01934 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01935 warn delta
[39m[49m01936 epsilon
             01937 [36mzeta[39m mu beta
01938 [37meta[39m eta eta
01939 [31mtheta[39m beta mu
[1m[32m01940[0m[39m[49m iota done
[97m[41m01941 FAIL kappa
[38;5;150m[49m01942[39m   [38;5;150mlambda[39m  [38;5;150mbeta
[38;2;151;100;200m01943 ==========================================================================
=====================================================================[39m|
01944 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01945 warn beta
[39m[49m01946 gamma
           01947 [32mdelta[39m kappa delta
01948 [33mepsilon[39m epsilon iota
01949 [34mzeta[39m mu beta
[1m[35m01950[0m[39m[49m eta done
[97m[41m01951 FAIL theta
[38;5;160m[49m01952[39m   [38;5;160miota[39m    [38;5;160mmu
[38;2;161;100;200m01953 ===[39m|
01954 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01955 warn mu
[39m[49m01956 alpha
           01957 [35mbeta[39m theta zeta
01958 [36mgamma[39m gamma lambda
01959 [37mdelta[39m kappa delta
[1m[31m01960[0m[39m[49m epsilon done
[97m[41m01961 FAIL zeta
[38;5;170m[49m01962[39m   [38;5;170meta[39m     [38;5;170mkappa
[38;2;171;100;200m01963 =============[39m|
01964 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01965 warn kappa
[39m[49m01966 lambda
            01967 [31mmu[39m zeta theta
01968 [32malpha[39m alpha alpha
01969 [33mbeta[39m theta zeta
[1m[34m01970[0m[39m[49m gamma done
[97m[41m01971 FAIL delta
[38;5;180m[49m01972[39m   [38;5;180mepsilon[39m [38;5;180mtheta
[38;2;181;100;200m01973 =======================[39m|
01974 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01975 warn theta
[39m[49m01976 iota
          01977 [34mkappa[39m delta kappa
01978 [35mlambda[39m lambda gamma
01979 [36mmu[39m zeta theta
[1m[37m01980[0m[39m[49m alpha done
[97m[41m01981 FAIL beta
[38;5;190m[49m01982[39m   [38;5;190mgamma[39m   [38;5;190mzeta
[38;2;191;100;200m01983 =================================[39m|
01984 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01985 warn zeta
[39m[49m01986 eta
         01987 [37mtheta[39m beta mu
01988 [31miota[39m iota epsilon
01989 [32mkappa[39m delta kappa
[1m[33m01990[0m[39m[49m lambda done
[97m[41m01991 FAIL mu
[38;5;200m[49m01992[39m   [38;5;200malpha[39m   [38;5;200mdelta
[38;2;201;100;200m01993 ===========================================[39m|
01994 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m01995 warn delta
[39m[49m01996 epsilon
             01997 [33mzeta[39m mu beta
01998 [34meta[39m eta eta
01999 [35mtheta[39m beta mu
[1m[36m02000[0m[39m[49m iota done
[97m[41m02001 FAIL kappa
[38;5;210m[49m02002[39m   [38;5;210mlambda[39m  [38;5;210mbeta
[38;2;211;100;200m02003 =====================================================[39m|
02004 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02005 warn beta
[39m[49m02006 gamma
           02007 [36mdelta[39m kappa delta
02008 [37mepsilon[39m epsilon iota
02009 [31mzeta[39m mu beta
[1m[32m02010[0m[39m[49m eta done
[97m[41m02011 FAIL theta
[38;5;220m[49m02012[39m   [38;5;220miota[39m    [38;5;220mmu
[38;2;221;100;200m02013 ===============================================================[39m|
02014 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02015 warn mu
[39m[49m02016 alpha
           02017 [32mbeta[39m theta zeta
02018 [33mgamma[39m gamma lambda
02019 [34mdelta[39m kappa delta
[1m[35m02020[0m[39m[49m epsilon done
[97m[41m02021 FAIL zeta
[38;5;230m[49m02022[39m   [38;5;230meta[39m     [38;5;230mkappa
[38;2;231;100;200m02023 =========================================================================[39m|
02024 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02025 warn kappa
[39m[49m02026 lambda
            02027 [35mmu[39m zeta theta
02028 [36malpha[39m alpha alpha
02029 [37mbeta[39m theta zeta
[1m[31m02030[0m[39m[49m gamma done
[97m[41m02031 FAIL delta
[38;5;240m[49m02032[39m   [38;5;240mepsilon[39m [38;5;240mtheta
[38;2;241;100;200m02033 ==========================================================================
=========[39m|
02034 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02035 warn theta
[39m[49m02036 iota
          02037 [31mkappa[39m delta kappa
02038 [32mlambda[39m lambda gamma
02039 [33mmu[39m zeta theta
[1m[34m02040[0m[39m[49m alpha done
[97m[41m02041 FAIL beta
[38;5;250m[49m02042[39m   [38;5;250mgamma[39m   [38;5;250mzeta
[38;2;251;100;200m02043 ==========================================================================
===================[39m|
02044 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02045 warn zeta
[39m[49m02046 eta
         02047 [34mtheta[39m beta mu
02048 [35miota[39m iota epsilon
02049 [36mkappa[39m delta kappa
[1m[37m02050[0m[39m[49m lambda done
[97m[41m02051 FAIL mu
[38;5;4m[49m02052[39m   [38;5;4malpha[39m   [38;5;4mdelta
[38;2;5;100;200m02053 ==========================================================================
=============================[39m|
02054 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02055 warn delta
[39m[49m02056 epsilon
             02057 [37mzeta[39m mu beta
02058 [31meta[39m eta eta
02059 [32mtheta[39m beta mu
[1m[33m02060[0m[39m[49m iota done
[97m[41m02061 FAIL kappa
[38;5;14m[49m02062[39m   [38;5;14mlambda[39m  [38;5;14mbeta
[38;2;15;100;200m02063 ==========================================================================
=======================================[39m|
02064 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02065 warn beta
[39m[49m02066 gamma
           02067 [33mdelta[39m kappa delta
02068 [34mepsilon[39m epsilon iota
02069 [35mzeta[39m mu beta
[1m[36m02070[0m[39m[49m eta done
[97m[41m02071 FAIL theta
[38;5;24m[49m02072[39m   [38;5;24miota[39m    [38;5;24mmu
[38;2;25;100;200m02073 ==========================================================================
=================================================[39m|
02074 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02075 warn mu
[39m[49m02076 alpha
           02077 [36mbeta[39m theta zeta
02078 [37mgamma[39m gamma lambda
02079 [31mdelta[39m kappa delta
[1m[32m02080[0m[39m[49m epsilon done
[97m[41m02081 FAIL zeta
[38;5;34m[49m02082[39m   [38;5;34meta[39m     [38;5;34mkappa
[38;2;35;100;200m02083 ==========================================================================
===========================================================[39m|
02084 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02085 warn kappa
[39m[49m02086 lambda
            02087 [32mmu[39m zeta theta
02088 [33malpha[39m alpha alpha
02089 [34mbeta[39m theta zeta
[1m[35m02090[0m[39m[49m gamma done
[97m[41m02091 FAIL delta
[38;5;44m[49m02092[39m   [38;5;44mepsilon[39m [38;5;44mtheta
[38;2;45;100;200m02093 ==========================================================================
=====================================================================[39m|
02094 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02095 warn theta
[39m[49m02096 iota
          02097 [35mkappa[39m delta kappa
02098 [36mlambda[39m lambda gamma
02099 [37mmu[39m zeta theta
[1m[31m02100[0m[39m[49m alpha done
[97m[41m02101 FAIL beta
[38;5;54m[49m02102[39m   [38;5;54mgamma[39m   [38;5;54mzeta
[38;2;55;100;200m02103 ===[39m|
02104 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02105 warn zeta
[39m[49m02106 eta
         02107 [31mtheta[39m beta mu
02108 [32miota[39m iota epsilon
02109 [33mkappa[39m delta kappa
[1m[34m02110[0m[39m[49m lambda done
[97m[41m02111 FAIL mu
[38;5;64m[49m02112[39m   [38;5;64malpha[39m   [38;5;64mdelta
[38;2;65;100;200m02113 =============[39m|
02114 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02115 warn delta
[39m[49m02116 epsilon
             02117 [34mzeta[39m mu beta
02118 [35meta[39m eta eta
02119 [36mtheta[39m beta mu
[1m[37m02120[0m[39m[49m iota done
[97m[41m02121 FAIL kappa
[38;5;74m[49m02122[39m   [38;5;74mlambda[39m  [38;5;74mbeta
[38;2;75;100;200m02123 =======================[39m|
02124 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02125 warn beta
[39m[49m02126 gamma
           02127 [37mdelta[39m kappa delta
02128 [31mepsilon[39m epsilon iota
02129 [32mzeta[39m mu beta
[1m[33m02130[0m[39m[49m eta done
[97m[41m02131 FAIL theta
[38;5;84m[49m02132[39m   [38;5;84miota[39m    [38;5;84mmu
[38;2;85;100;200m02133 =================================[39m|
02134 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02135 warn mu
[39m[49m02136 alpha
           02137 [33mbeta[39m theta zeta
02138 [34mgamma[39m gamma lambda
02139 [35mdelta[39m kappa delta
[1m[36m02140[0m[39m[49m epsilon done
[97m[41m02141 FAIL zeta
[38;5;94m[49m02142[39m   [38;5;94meta[39m     [38;5;94mkappa
[38;2;95;100;200m02143 ===========================================[39m|
02144 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02145 warn kappa
[39m[49m02146 lambda
            02147 [36mmu[39m zeta theta
02148 [37malpha[39m alpha alpha
02149 [31mbeta[39m theta zeta
[1m[32m02150[0m[39m[49m gamma done
[97m[41m02151 FAIL delta
[38;5;104m[49m02152[39m   [38;5;104mepsilon[39m [38;5;104mtheta
[38;2;105;100;200m02153 =====================================================[39m|
02154 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02155 warn theta
[39m[49m02156 iota
          02157 [32mkappa[39m delta kappa
02158 [33mlambda[39m lambda gamma
02159 [34mmu[39m zeta theta
[1m[35m02160[0m[39m[49m alpha done
[97m[41m02161 FAIL beta
[38;5;114m[49m02162[39m   [38;5;114mgamma[39m   [38;5;114mzeta
[38;2;115;100;200m02163 ===============================================================[39m|
02164 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02165 warn zeta
[39m[49m02166 eta
         02167 [35mtheta[39m beta mu
02168 [36miota[39m iota epsilon
02169 [37mkappa[39m delta kappa
[1m[31m02170[0m[39m[49m lambda done
[97m[41m02171 FAIL mu
[38;5;124m[49m02172[39m   [38;5;124malpha[39m   [38;5;124mdelta
[38;2;125;100;200m02173 =========================================================================[39m|
02174 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02175 warn delta
[39m[49m02176 epsilon
             02177 [31mzeta[39m mu beta
02178 [32meta[39m eta eta
02179 [33mtheta[39m beta mu
[1m[34m02180[0m[39m[49m iota done
[97m[41m02181 FAIL kappa
[38;5;134m[49m02182[39m   [38;5;134mlambda[39m  [38;5;134mbeta
[38;2;135;100;200m02183 ==========================================================================
=========[39m|
02184 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02185 warn beta
[39m[49m02186 gamma
           02187 [34mdelta[39m kappa delta
02188 [35mepsilon[39m epsilon iota
02189 [36mzeta[39m mu beta
[1m[37m02190[0m[39m[49m eta done
[97m[41m02191 FAIL theta
[38;5;144m[49m02192[39m   [38;5;144miota[39m    [38;5;144mmu
[38;2;145;100;200m02193 ==========================================================================
===================[39m|
02194 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02195 warn mu
[39m[49m02196 alpha
           02197 [37mbeta[39m theta zeta
02198 [31mgamma[39m gamma lambda
02199 [32mdelta[39m kappa delta
[1m[33m02200[0m[39m[49m epsilon done
[97m[41m02201 FAIL zeta
[38;5;154m[49m02202[39m   [38;5;154meta[39m     [38;5;154mkappa
[38;2;155;100;200m02203 ==========================================================================
=============================[39m|
02204 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02205 warn kappa
[39m[49m02206 lambda
            02207 [33mmu[39m zeta theta
02208 [34malpha[39m alpha alpha
02209 [35mbeta[39m theta zeta
[1m[36m02210[0m[39m[49m gamma done
[97m[41m02211 FAIL delta
[38;5;164m[49m02212[39m   [38;5;164mepsilon[39m [38;5;164mtheta
[38;2;165;100;200m02213 ==========================================================================
=======================================[39m|
02214 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02215 warn theta
[39m[49m02216 iota
          02217 [36mkappa[39m delta kappa
02218 [37mlambda[39m lambda gamma
02219 [31mmu[39m zeta theta
[1m[32m02220[0m[39m[49m alpha done
[97m[41m02221 FAIL beta
[38;5;174m[49m02222[39m   [38;5;174mgamma[39m   [38;5;174mzeta
[38;2;175;100;200m02223 ==========================================================================
=================================================[39m|
02224 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02225 warn zeta
[39m[49m02226 eta
         02227 [32mtheta[39m beta mu
02228 [33miota[39m iota epsilon
02229 [34mkappa[39m delta kappa
[1m[35m02230[0m[39m[49m lambda done
[97m[41m02231 FAIL mu
[38;5;184m[49m02232[39m   [38;5;184malpha[39m   [38;5;184mdelta
[38;2;185;100;200m02233 ==========================================================================
===========================================================[39m|
02234 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02235 warn delta
[39m[49m02236 epsilon
             02237 [35mzeta[39m mu beta
02238 [36meta[39m eta eta
02239 [37mtheta[39m beta mu
[1m[31m02240[0m[39m[49m iota done
[97m[41m02241 FAIL kappa
[38;5;194m[49m02242[39m   [38;5;194mlambda[39m  [38;5;194mbeta
[38;2;195;100;200m02243 ==========================================================================
=====================================================================[39m|
02244 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02245 warn beta
[39m[49m02246 gamma
           02247 [31mdelta[39m kappa delta
02248 [32mepsilon[39m epsilon iota
02249 [33mzeta[39m mu beta
[1m[34m02250[0m[39m[49m eta done
[97m[41m02251 FAIL theta
[38;5;204m[49m02252[39m   [38;5;204miota[39m    [38;5;204mmu
[38;2;205;100;200m02253 ===[39m|
02254 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02255 warn mu
[39m[49m02256 alpha
           02257 [34mbeta[39m theta zeta
02258 [35mgamma[39m gamma lambda
02259 [36mdelta[39m kappa delta
[1m[37m02260[0m[39m[49m epsilon done
[97m[41m02261 FAIL zeta
[38;5;214m[49m02262[39m   [38;5;214meta[39m     [38;5;214mkappa
[38;2;215;100;200m02263 =============[39m|
02264 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02265 warn kappa
[39m[49m02266 lambda
            02267 [37mmu[39m zeta theta
02268 [31malpha[39m alpha alpha
02269 [32mbeta[39m theta zeta
[1m[33m02270[0m[39m[49m gamma done
[97m[41m02271 FAIL delta
[38;5;224m[49m02272[39m   [38;5;224mepsilon[39m [38;5;224mtheta
[38;2;225;100;200m02273 =======================[39m|
02274 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02275 warn theta
[39m[49m02276 iota
          02277 [33mkappa[39m delta kappa
02278 [34mlambda[39m lambda gamma
02279 [35mmu[39m zeta theta
[1m[36m02280[0m[39m[49m alpha done
[97m[41m02281 FAIL beta
[38;5;234m[49m02282[39m   [38;5;234mgamma[39m   [38;5;234mzeta
[38;2;235;100;200m02283 =================================[39m|
02284 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02285 warn zeta
[39m[49m02286 eta
         02287 [36mtheta[39m beta mu
02288 [37miota[39m iota epsilon
02289 [31mkappa[39m delta kappa
[1m[32m02290[0m[39m[49m lambda done
[97m[41m02291 FAIL mu
[38;5;244m[49m02292[39m   [38;5;244malpha[39m   [38;5;244mdelta
[38;2;245;100;200m02293 ===========================================[39m|
02294 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02295 warn delta
[39m[49m02296 epsilon
             02297 [32mzeta[39m mu beta
02298 [33meta[39m eta eta
02299 [34mtheta[39m beta mu
[1m[35m02300[0m[39m[49m iota done
[97m[41m02301 FAIL kappa
[38;5;254m[49m02302[39m   [38;5;254mlambda[39m  [38;5;254mbeta
[38;2;255;100;200m02303 =====================================================[39m|
02304 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02305 warn beta
[39m[49m02306 gamma
           02307 [35mdelta[39m kappa delta
02308 [36mepsilon[39m epsilon iota
02309 [37mzeta[39m mu beta
[1m[31m02310[0m[39m[49m eta done
[97m[41m02311 FAIL theta
[38;5;8m[49m02312[39m   [38;5;8miota[39m    [38;5;8mmu
[38;2;9;100;200m02313 ===============================================================[39m|
02314 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02315 warn mu
[39m[49m02316 alpha
           02317 [31mbeta[39m theta zeta
02318 [32mgamma[39m gamma lambda
02319 [33mdelta[39m kappa delta
[1m[34m02320[0m[39m[49m epsilon done
[97m[41m02321 FAIL zeta
[38;5;18m[49m02322[39m   [38;5;18meta[39m     [38;5;18mkappa
[38;2;19;100;200m02323 =========================================================================[39m|
02324 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02325 warn kappa
[39m[49m02326 lambda
            02327 [34mmu[39m zeta theta
02328 [35malpha[39m alpha alpha
02329 [36mbeta[39m theta zeta
[1m[37m02330[0m[39m[49m gamma done
[97m[41m02331 FAIL delta
[38;5;28m[49m02332[39m   [38;5;28mepsilon[39m [38;5;28mtheta
[38;2;29;100;200m02333 ==========================================================================
=========[39m|
02334 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02335 warn theta
[39m[49m02336 iota
          02337 [37mkappa[39m delta kappa
02338 [31mlambda[39m lambda gamma
02339 [32mmu[39m zeta theta
[1m[33m02340[0m[39m[49m alpha done
[97m[41m02341 FAIL beta
[38;5;38m[49m02342[39m   [38;5;38mgamma[39m   [38;5;38mzeta
[38;2;39;100;200m02343 ==========================================================================
===================[39m|
02344 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02345 warn zeta
[39m[49m02346 eta
         02347 [33mtheta[39m beta mu
02348 [34miota[39m iota epsilon
02349 [35mkappa[39m delta kappa
[1m[36m02350[0m[39m[49m lambda done
[97m[41m02351 FAIL mu
[38;5;48m[49m02352[39m   [38;5;48malpha[39m   [38;5;48mdelta
[38;2;49;100;200m02353 ==========================================================================
=============================[39m|
02354 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02355 warn delta
[39m[49m02356 epsilon
             02357 [36mzeta[39m mu beta
02358 [37meta[39m eta eta
02359 [31mtheta[39m beta mu
[1m[32m02360[0m[39m[49m iota done
[97m[41m02361 FAIL kappa
[38;5;58m[49m02362[39m   [38;5;58mlambda[39m  [38;5;58mbeta
[38;2;59;100;200m02363 ==========================================================================
=======================================[39m|
02364 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02365 warn beta
[39m[49m02366 gamma
           02367 [32mdelta[39m kappa delta
02368 [33mepsilon[39m epsilon iota
02369 [34mzeta[39m mu beta
[1m[35m02370[0m[39m[49m eta done
[97m[41m02371 FAIL theta
[38;5;68m[49m02372[39m   [38;5;68miota[39m    [38;5;68mmu
[38;2;69;100;200m02373 ==========================================================================
=================================================[39m|
02374 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02375 warn mu
[39m[49m02376 alpha
           02377 [35mbeta[39m theta zeta
02378 [36mgamma[39m gamma lambda
02379 [37mdelta[39m kappa delta
[1m[31m02380[0m[39m[49m epsilon done
[97m[41m02381 FAIL zeta
[38;5;78m[49m02382[39m   [38;5;78meta[39m     [38;5;78mkappa
[38;2;79;100;200m02383 ==========================================================================
===========================================================[39m|
02384 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02385 warn kappa
[39m[49m02386 lambda
            02387 [31mmu[39m zeta theta
02388 [32malpha[39m alpha alpha
02389 [33mbeta[39m theta zeta
[1m[34m02390[0m[39m[49m gamma done
[97m[41m02391 FAIL delta
[38;5;88m[49m02392[39m   [38;5;88mepsilon[39m [38;5;88mtheta
[38;2;89;100;200m02393 ==========================================================================
=====================================================================[39m|
02394 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02395 warn theta
[39m[49m02396 iota
          02397 [34mkappa[39m delta kappa
02398 [35mlambda[39m lambda gamma
02399 [36mmu[39m zeta theta
[1m[37m02400[0m[39m[49m alpha done
[97m[41m02401 FAIL beta
[38;5;98m[49m02402[39m   [38;5;98mgamma[39m   [38;5;98mzeta
[38;2;99;100;200m02403 ===[39m|
02404 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02405 warn zeta
[39m[49m02406 eta
         02407 [37mtheta[39m beta mu
02408 [31miota[39m iota epsilon
02409 [32mkappa[39m delta kappa
[1m[33m02410[0m[39m[49m lambda done
[97m[41m02411 FAIL mu
[38;5;108m[49m02412[39m   [38;5;108malpha[39m   [38;5;108mdelta
[38;2;109;100;200m02413 =============[39m|
02414 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02415 warn delta
[39m[49m02416 epsilon
             02417 [33mzeta[39m mu beta
02418 [34meta[39m eta eta
02419 [35mtheta[39m beta mu
[1m[36m02420[0m[39m[49m iota done
[97m[41m02421 FAIL kappa
[38;5;118m[49m02422[39m   [38;5;118mlambda[39m  [38;5;118mbeta
[38;2;119;100;200m02423 =======================[39m|
02424 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02425 warn beta
[39m[49m02426 gamma
           02427 [36mdelta[39m kappa delta
02428 [37mepsilon[39m epsilon iota
02429 [31mzeta[39m mu beta
[1m[32m02430[0m[39m[49m eta done
[97m[41m02431 FAIL theta
[38;5;128m[49m02432[39m   [38;5;128miota[39m    [38;5;128mmu
[38;2;129;100;200m02433 =================================[39m|
02434 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02435 warn mu
[39m[49m02436 alpha
           02437 [32mbeta[39m theta zeta
02438 [33mgamma[39m gamma lambda
02439 [34mdelta[39m kappa delta
[1m[35m02440[0m[39m[49m epsilon done
[97m[41m02441 FAIL zeta
[38;5;138m[49m02442[39m   [38;5;138meta[39m     [38;5;138mkappa
[38;2;139;100;200m02443 ===========================================[39m|
02444 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02445 warn kappa
[39m[49m02446 lambda
            02447 [35mmu[39m zeta theta
02448 [36malpha[39m alpha alpha
02449 [37mbeta[39m theta zeta
[1m[31m02450[0m[39m[49m gamma done
[97m[41m02451 FAIL delta
[38;5;148m[49m02452[39m   [38;5;148mepsilon[39m [38;5;148mtheta
[38;2;149;100;200m02453 =====================================================[39m|
02454 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02455 warn theta
[39m[49m02456 iota
          02457 [31mkappa[39m delta kappa
02458 [32mlambda[39m lambda gamma
02459 [33mmu[39m zeta theta
[1m[34m02460[0m[39m[49m alpha done
[97m[41m02461 FAIL beta
[38;5;158m[49m02462[39m   [38;5;158mgamma[39m   [38;5;158mzeta
[38;2;159;100;200m02463 ===============================================================[39m|
02464 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02465 warn zeta
[39m[49m02466 eta
         02467 [34mtheta[39m beta mu
02468 [35miota[39m iota epsilon
02469 [36mkappa[39m delta kappa
[1m[37m02470[0m[39m[49m lambda done
[97m[41m02471 FAIL mu
[38;5;168m[49m02472[39m   [38;5;168malpha[39m   [38;5;168mdelta
[38;2;169;100;200m02473 =========================================================================[39m|
02474 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02475 warn delta
[39m[49m02476 epsilon
             02477 [37mzeta[39m mu beta
02478 [31meta[39m eta eta
02479 [32mtheta[39m beta mu
[1m[33m02480[0m[39m[49m iota done
[97m[41m02481 FAIL kappa
[38;5;178m[49m02482[39m   [38;5;178mlambda[39m  [38;5;178mbeta
[38;2;179;100;200m02483 ==========================================================================
=========[39m|
02484 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02485 warn beta
[39m[49m02486 gamma
           02487 [33mdelta[39m kappa delta
02488 [34mepsilon[39m epsilon iota
02489 [35mzeta[39m mu beta
[1m[36m02490[0m[39m[49m eta done
[97m[41m02491 FAIL theta
[38;5;188m[49m02492[39m   [38;5;188miota[39m    [38;5;188mmu
[38;2;189;100;200m02493 ==========================================================================
===================[39m|
02494 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02495 warn mu
[39m[49m02496 alpha
           02497 [36mbeta[39m theta zeta
02498 [37mgamma[39m gamma lambda
02499 [31mdelta[39m kappa delta
[1m[32m02500[0m[39m[49m epsilon done
[97m[41m02501 FAIL zeta
[38;5;198m[49m02502[39m   [38;5;198meta[39m     [38;5;198mkappa
[38;2;199;100;200m02503 ==========================================================================
=============================[39m|
02504 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02505 warn kappa
[39m[49m02506 lambda
            02507 [32mmu[39m zeta theta
02508 [33malpha[39m alpha alpha
02509 [34mbeta[39m theta zeta
[1m[35m02510[0m[39m[49m gamma done
[97m[41m02511 FAIL delta
[38;5;208m[49m02512[39m   [38;5;208mepsilon[39m [38;5;208mtheta
[38;2;209;100;200m02513 ==========================================================================
=======================================[39m|
02514 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02515 warn theta
[39m[49m02516 iota
          02517 [35mkappa[39m delta kappa
02518 [36mlambda[39m lambda gamma
02519 [37mmu[39m zeta theta
[1m[31m02520[0m[39m[49m alpha done
[97m[41m02521 FAIL beta
[38;5;218m[49m02522[39m   [38;5;218mgamma[39m   [38;5;218mzeta
[38;2;219;100;200m02523 ==========================================================================
=================================================[39m|
02524 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02525 warn zeta
[39m[49m02526 eta
         02527 [31mtheta[39m beta mu
02528 [32miota[39m iota epsilon
02529 [33mkappa[39m delta kappa
[1m[34m02530[0m[39m[49m lambda done
[97m[41m02531 FAIL mu
[38;5;228m[49m02532[39m   [38;5;228malpha[39m   [38;5;228mdelta
[38;2;229;100;200m02533 ==========================================================================
===========================================================[39m|
02534 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02535 warn delta
[39m[49m02536 epsilon
             02537 [34mzeta[39m mu beta
02538 [35meta[39m eta eta
02539 [36mtheta[39m beta mu
[1m[37m02540[0m[39m[49m iota done
[97m[41m02541 FAIL kappa
[38;5;238m[49m02542[39m   [38;5;238mlambda[39m  [38;5;238mbeta
[38;2;239;100;200m02543 ==========================================================================
=====================================================================[39m|
02544 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02545 warn beta
[39m[49m02546 gamma
           02547 [37mdelta[39m kappa delta
02548 [31mepsilon[39m epsilon iota
02549 [32mzeta[39m mu beta
[1m[33m02550[0m[39m[49m eta done
[97m[41m02551 FAIL theta
[38;5;248m[49m02552[39m   [38;5;248miota[39m    [38;5;248mmu
[38;2;249;100;200m02553 ===[39m|
02554 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02555 warn mu
[39m[49m02556 alpha
           02557 [33mbeta[39m theta zeta
02558 [34mgamma[39m gamma lambda
02559 [35mdelta[39m kappa delta
[1m[36m02560[0m[39m[49m epsilon done
[97m[41m02561 FAIL zeta
[38;5;2m[49m02562[39m   [38;5;2meta[39m     [38;5;2mkappa
[38;2;3;100;200m02563 =============[39m|
02564 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02565 warn kappa
[39m[49m02566 lambda
            02567 [36mmu[39m zeta theta
02568 [37malpha[39m alpha alpha
02569 [31mbeta[39m theta zeta
[1m[32m02570[0m[39m[49m gamma done
[97m[41m02571 FAIL delta
[38;5;12m[49m02572[39m   [38;5;12mepsilon[39m [38;5;12mtheta
[38;2;13;100;200m02573 =======================[39m|
02574 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02575 warn theta
[39m[49m02576 iota
          02577 [32mkappa[39m delta kappa
02578 [33mlambda[39m lambda gamma
02579 [34mmu[39m zeta theta
[1m[35m02580[0m[39m[49m alpha done
[97m[41m02581 FAIL beta
[38;5;22m[49m02582[39m   [38;5;22mgamma[39m   [38;5;22mzeta
[38;2;23;100;200m02583 =================================[39m|
02584 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02585 warn zeta
[39m[49m02586 eta
         02587 [35mtheta[39m beta mu
02588 [36miota[39m iota epsilon
02589 [37mkappa[39m delta kappa
[1m[31m02590[0m[39m[49m lambda done
[97m[41m02591 FAIL mu
[38;5;32m[49m02592[39m   [38;5;32malpha[39m   [38;5;32mdelta
[38;2;33;100;200m02593 ===========================================[39m|
02594 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02595 warn delta
[39m[49m02596 epsilon
             02597 [31mzeta[39m mu beta
02598 [32meta[39m eta eta
02599 [33mtheta[39m beta mu
[1m[34m02600[0m[39m[49m iota done
[97m[41m02601 FAIL kappa
[38;5;42m[49m02602[39m   [38;5;42mlambda[39m  [38;5;42mbeta
[38;2;43;100;200m02603 =====================================================[39m|
02604 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02605 warn beta
[39m[49m02606 gamma
           02607 [34mdelta[39m kappa delta
02608 [35mepsilon[39m epsilon iota
02609 [36mzeta[39m mu beta
[1m[37m02610[0m[39m[49m eta done
[97m[41m02611 FAIL theta
[38;5;52m[49m02612[39m   [38;5;52miota[39m    [38;5;52mmu
[38;2;53;100;200m02613 ===============================================================[39m|
02614 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02615 warn mu
[39m[49m02616 alpha
           02617 [37mbeta[39m theta zeta
02618 [31mgamma[39m gamma lambda
02619 [32mdelta[39m kappa delta
[1m[33m02620[0m[39m[49m epsilon done
[97m[41m02621 FAIL zeta
[38;5;62m[49m02622[39m   [38;5;62meta[39m     [38;5;62mkappa
[38;2;63;100;200m02623 =========================================================================[39m|
02624 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02625 warn kappa
[39m[49m02626 lambda
            02627 [33mmu[39m zeta theta
02628 [34malpha[39m alpha alpha
02629 [35mbeta[39m theta zeta
[1m[36m02630[0m[39m[49m gamma done
[97m[41m02631 FAIL delta
[38;5;72m[49m02632[39m   [38;5;72mepsilon[39m [38;5;72mtheta
[38;2;73;100;200m02633 ==========================================================================
=========[39m|
02634 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02635 warn theta
[39m[49m02636 iota
          02637 [36mkappa[39m delta kappa
02638 [37mlambda[39m lambda gamma
02639 [31mmu[39m zeta theta
[1m[32m02640[0m[39m[49m alpha done
[97m[41m02641 FAIL beta
[38;5;82m[49m02642[39m   [38;5;82mgamma[39m   [38;5;82mzeta
[38;2;83;100;200m02643 ==========================================================================
===================[39m|
02644 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02645 warn zeta
[39m[49m02646 eta
         02647 [32mtheta[39m beta mu
02648 [33miota[39m iota epsilon
02649 [34mkappa[39m delta kappa
[1m[35m02650[0m[39m[49m lambda done
[97m[41m02651 FAIL mu
[38;5;92m[49m02652[39m   [38;5;92malpha[39m   [38;5;92mdelta
[38;2;93;100;200m02653 ==========================================================================
=============================[39m|
02654 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02655 warn delta
[39m[49m02656 epsilon
             02657 [35mzeta[39m mu beta
02658 [36meta[39m eta eta
02659 [37mtheta[39m beta mu
[1m[31m02660[0m[39m[49m iota done
[97m[41m02661 FAIL kappa
[38;5;102m[49m02662[39m   [38;5;102mlambda[39m  [38;5;102mbeta
[38;2;103;100;200m02663 ==========================================================================
=======================================[39m|
02664 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02665 warn beta
[39m[49m02666 gamma
           02667 [31mdelta[39m kappa delta
02668 [32mepsilon[39m epsilon iota
02669 [33mzeta[39m mu beta
[1m[34m02670[0m[39m[49m eta done
[97m[41m02671 FAIL theta
[38;5;112m[49m02672[39m   [38;5;112miota[39m    [38;5;112mmu
[38;2;113;100;200m02673 ==========================================================================
=================================================[39m|
02674 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02675 warn mu
[39m[49m02676 alpha
           02677 [34mbeta[39m theta zeta
02678 [35mgamma[39m gamma lambda
02679 [36mdelta[39m kappa delta
[1m[37m02680[0m[39m[49m epsilon done
[97m[41m02681 FAIL zeta
[38;5;122m[49m02682[39m   [38;5;122meta[39m     [38;5;122mkappa
[38;2;123;100;200m02683 ==========================================================================
===========================================================[39m|
02684 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02685 warn kappa
[39m[49m02686 lambda
            02687 [37mmu[39m zeta theta
02688 [31malpha[39m alpha alpha
02689 [32mbeta[39m theta zeta
[1m[33m02690[0m[39m[49m gamma done
[97m[41m02691 FAIL delta
[38;5;132m[49m02692[39m   [38;5;132mepsilon[39m [38;5;132mtheta
[38;2;133;100;200m02693 ==========================================================================
=====================================================================[39m|
02694 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02695 warn theta
[39m[49m02696 iota
          02697 [33mkappa[39m delta kappa
02698 [34mlambda[39m lambda gamma
02699 [35mmu[39m zeta theta
[1m[36m02700[0m[39m[49m alpha done
[97m[41m02701 FAIL beta
[38;5;142m[49m02702[39m   [38;5;142mgamma[39m   [38;5;142mzeta
[38;2;143;100;200m02703 ===[39m|
02704 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02705 warn zeta
[39m[49m02706 eta
         02707 [36mtheta[39m beta mu
02708 [37miota[39m iota epsilon
02709 [31mkappa[39m delta kappa
[1m[32m02710[0m[39m[49m lambda done
[97m[41m02711 FAIL mu
[38;5;152m[49m02712[39m   [38;5;152malpha[39m   [38;5;152mdelta
[38;2;153;100;200m02713 =============[39m|
02714 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02715 warn delta
[39m[49m02716 epsilon
             02717 [32mzeta[39m mu beta
02718 [33meta[39m eta eta
02719 [34mtheta[39m beta mu
[1m[35m02720[0m[39m[49m iota done
[97m[41m02721 FAIL kappa
[38;5;162m[49m02722[39m   [38;5;162mlambda[39m  [38;5;162mbeta
[38;2;163;100;200m02723 =======================[39m|
02724 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02725 warn beta
[39m[49m02726 gamma
           02727 [35mdelta[39m kappa delta
02728 [36mepsilon[39m epsilon iota
02729 [37mzeta[39m mu beta
[1m[31m02730[0m[39m[49m eta done
[97m[41m02731 FAIL theta
[38;5;172m[49m02732[39m   [38;5;172miota[39m    [38;5;172mmu
[38;2;173;100;200m02733 =================================[39m|
02734 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02735 warn mu
[39m[49m02736 alpha
           02737 [31mbeta[39m theta zeta
02738 [32mgamma[39m gamma lambda
02739 [33mdelta[39m kappa delta
[1m[34m02740[0m[39m[49m epsilon done
[97m[41m02741 FAIL zeta
[38;5;182m[49m02742[39m   [38;5;182meta[39m     [38;5;182mkappa
[38;2;183;100;200m02743 ===========================================[39m|
02744 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02745 warn kappa
[39m[49m02746 lambda
            02747 [34mmu[39m zeta theta
02748 [35malpha[39m alpha alpha
02749 [36mbeta[39m theta zeta
[1m[37m02750[0m[39m[49m gamma done
[97m[41m02751 FAIL delta
[38;5;192m[49m02752[39m   [38;5;192mepsilon[39m [38;5;192mtheta
[38;2;193;100;200m02753 =====================================================[39m|
02754 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02755 warn theta
[39m[49m02756 iota
          02757 [37mkappa[39m delta kappa
02758 [31mlambda[39m lambda gamma
02759 [32mmu[39m zeta theta
[1m[33m02760[0m[39m[49m alpha done
[97m[41m02761 FAIL beta
[38;5;202m[49m02762[39m   [38;5;202mgamma[39m   [38;5;202mzeta
[38;2;203;100;200m02763 ===============================================================[39m|
02764 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02765 warn zeta
[39m[49m02766 eta
         02767 [33mtheta[39m beta mu
02768 [34miota[39m iota epsilon
02769 [35mkappa[39m delta kappa
[1m[36m02770[0m[39m[49m lambda done
[97m[41m02771 FAIL mu
[38;5;212m[49m02772[39m   [38;5;212malpha[39m   [38;5;212mdelta
[38;2;213;100;200m02773 =========================================================================[39m|
02774 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02775 warn delta
[39m[49m02776 epsilon
             02777 [36mzeta[39m mu beta
02778 [37meta[39m eta eta
02779 [31mtheta[39m beta mu
[1m[32m02780[0m[39m[49m iota done
[97m[41m02781 FAIL kappa
[38;5;222m[49m02782[39m   [38;5;222mlambda[39m  [38;5;222mbeta
[38;2;223;100;200m02783 ==========================================================================
=========[39m|
02784 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02785 warn beta
[39m[49m02786 gamma
           02787 [32mdelta[39m kappa delta
02788 [33mepsilon[39m epsilon iota
02789 [34mzeta[39m mu beta
[1m[35m02790[0m[39m[49m eta done
[97m[41m02791 FAIL theta
[38;5;232m[49m02792[39m   [38;5;232miota[39m    [38;5;232mmu
[38;2;233;100;200m02793 ==========================================================================
===================[39m|
02794 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02795 warn mu
[39m[49m02796 alpha
           02797 [35mbeta[39m theta zeta
02798 [36mgamma[39m gamma lambda
02799 [37mdelta[39m kappa delta
[1m[31m02800[0m[39m[49m epsilon done
[97m[41m02801 FAIL zeta
[38;5;242m[49m02802[39m   [38;5;242meta[39m     [38;5;242mkappa
[38;2;243;100;200m02803 ==========================================================================
=============================[39m|
02804 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02805 warn kappa
[39m[49m02806 lambda
            02807 [31mmu[39m zeta theta
02808 [32malpha[39m alpha alpha
02809 [33mbeta[39m theta zeta
[1m[34m02810[0m[39m[49m gamma done
[97m[41m02811 FAIL delta
[38;5;252m[49m02812[39m   [38;5;252mepsilon[39m [38;5;252mtheta
[38;2;253;100;200m02813 ==========================================================================
=======================================[39m|
02814 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02815 warn theta
[39m[49m02816 iota
          02817 [34mkappa[39m delta kappa
02818 [35mlambda[39m lambda gamma
02819 [36mmu[39m zeta theta
[1m[37m02820[0m[39m[49m alpha done
[97m[41m02821 FAIL beta
[38;5;6m[49m02822[39m   [38;5;6mgamma[39m   [38;5;6mzeta
[38;2;7;100;200m02823 ==========================================================================
=================================================[39m|
02824 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02825 warn zeta
[39m[49m02826 eta
         02827 [37mtheta[39m beta mu
02828 [31miota[39m iota epsilon
02829 [32mkappa[39m delta kappa
[1m[33m02830[0m[39m[49m lambda done
[97m[41m02831 FAIL mu
[38;5;16m[49m02832[39m   [38;5;16malpha[39m   [38;5;16mdelta
[38;2;17;100;200m02833 ==========================================================================
===========================================================[39m|
02834 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02835 warn delta
[39m[49m02836 epsilon
             02837 [33mzeta[39m mu beta
02838 [34meta[39m eta eta
02839 [35mtheta[39m beta mu
[1m[36m02840[0m[39m[49m iota done
[97m[41m02841 FAIL kappa
[38;5;26m[49m02842[39m   [38;5;26mlambda[39m  [38;5;26mbeta
[38;2;27;100;200m02843 ==========================================================================
=====================================================================[39m|
02844 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02845 warn beta
[39m[49m02846 gamma
           02847 [36mdelta[39m kappa delta
02848 [37mepsilon[39m epsilon iota
02849 [31mzeta[39m mu beta
[1m[32m02850[0m[39m[49m eta done
[97m[41m02851 FAIL theta
[38;5;36m[49m02852[39m   [38;5;36miota[39m    [38;5;36mmu
[38;2;37;100;200m02853 ===[39m|
02854 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02855 warn mu
[39m[49m02856 alpha
           02857 [32mbeta[39m theta zeta
02858 [33mgamma[39m gamma lambda
02859 [34mdelta[39m kappa delta
[1m[35m02860[0m[39m[49m epsilon done
[97m[41m02861 FAIL zeta
[38;5;46m[49m02862[39m   [38;5;46meta[39m     [38;5;46mkappa
[38;2;47;100;200m02863 =============[39m|
02864 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02865 warn kappa
[39m[49m02866 lambda
            02867 [35mmu[39m zeta theta
02868 [36malpha[39m alpha alpha
02869 [37mbeta[39m theta zeta
[1m[31m02870[0m[39m[49m gamma done
[97m[41m02871 FAIL delta
[38;5;56m[49m02872[39m   [38;5;56mepsilon[39m [38;5;56mtheta
[38;2;57;100;200m02873 =======================[39m|
02874 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02875 warn theta
[39m[49m02876 iota
          02877 [31mkappa[39m delta kappa
02878 [32mlambda[39m lambda gamma
02879 [33mmu[39m zeta theta
[1m[34m02880[0m[39m[49m alpha done
[97m[41m02881 FAIL beta
[38;5;66m[49m02882[39m   [38;5;66mgamma[39m   [38;5;66mzeta
[38;2;67;100;200m02883 =================================[39m|
02884 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02885 warn zeta
[39m[49m02886 eta
         02887 [34mtheta[39m beta mu
02888 [35miota[39m iota epsilon
02889 [36mkappa[39m delta kappa
[1m[37m02890[0m[39m[49m lambda done
[97m[41m02891 FAIL mu
[38;5;76m[49m02892[39m   [38;5;76malpha[39m   [38;5;76mdelta
[38;2;77;100;200m02893 ===========================================[39m|
02894 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02895 warn delta
[39m[49m02896 epsilon
             02897 [37mzeta[39m mu beta
02898 [31meta[39m eta eta
02899 [32mtheta[39m beta mu
[1m[33m02900[0m[39m[49m iota done
[97m[41m02901 FAIL kappa
[38;5;86m[49m02902[39m   [38;5;86mlambda[39m  [38;5;86mbeta
[38;2;87;100;200m02903 =====================================================[39m|
02904 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02905 warn beta
[39m[49m02906 gamma
           02907 [33mdelta[39m kappa delta
02908 [34mepsilon[39m epsilon iota
02909 [35mzeta[39m mu beta
[1m[36m02910[0m[39m[49m eta done
[97m[41m02911 FAIL theta
[38;5;96m[49m02912[39m   [38;5;96miota[39m    [38;5;96mmu
[38;2;97;100;200m02913 ===============================================================[39m|
02914 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02915 warn mu
[39m[49m02916 alpha
           02917 [36mbeta[39m theta zeta
02918 [37mgamma[39m gamma lambda
02919 [31mdelta[39m kappa delta
[1m[32m02920[0m[39m[49m epsilon done
[97m[41m02921 FAIL zeta
[38;5;106m[49m02922[39m   [38;5;106meta[39m     [38;5;106mkappa
[38;2;107;100;200m02923 =========================================================================[39m|
02924 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02925 warn kappa
[39m[49m02926 lambda
            02927 [32mmu[39m zeta theta
02928 [33malpha[39m alpha alpha
02929 [34mbeta[39m theta zeta
[1m[35m02930[0m[39m[49m gamma done
[97m[41m02931 FAIL delta
[38;5;116m[49m02932[39m   [38;5;116mepsilon[39m [38;5;116mtheta
[38;2;117;100;200m02933 ==========================================================================
=========[39m|
02934 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02935 warn theta
[39m[49m02936 iota
          02937 [35mkappa[39m delta kappa
02938 [36mlambda[39m lambda gamma
02939 [37mmu[39m zeta theta
[1m[31m02940[0m[39m[49m alpha done
[97m[41m02941 FAIL beta
[38;5;126m[49m02942[39m   [38;5;126mgamma[39m   [38;5;126mzeta
[38;2;127;100;200m02943 ==========================================================================
===================[39m|
02944 你好 epsilon 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02945 warn zeta
[39m[49m02946 eta
         02947 [31mtheta[39m beta mu
02948 [32miota[39m iota epsilon
02949 [33mkappa[39m delta kappa
[1m[34m02950[0m[39m[49m lambda done
[97m[41m02951 FAIL mu
[38;5;136m[49m02952[39m   [38;5;136malpha[39m   [38;5;136mdelta
[38;2;137;100;200m02953 ==========================================================================
=============================[39m|
02954 你好 gamma 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02955 warn delta
[39m[49m02956 epsilon
             02957 [34mzeta[39m mu beta
02958 [35meta[39m eta eta
02959 [36mtheta[39m beta mu
[1m[37m02960[0m[39m[49m iota done
[97m[41m02961 FAIL kappa
[38;5;146m[49m02962[39m   [38;5;146mlambda[39m  [38;5;146mbeta
[38;2;147;100;200m02963 ==========================================================================
=======================================[39m|
02964 你好 alpha 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02965 warn beta
[39m[49m02966 gamma
           02967 [37mdelta[39m kappa delta
02968 [31mepsilon[39m epsilon iota
02969 [32mzeta[39m mu beta
[1m[33m02970[0m[39m[49m eta done
[97m[41m02971 FAIL theta
[38;5;156m[49m02972[39m   [38;5;156miota[39m    [38;5;156mmu
[38;2;157;100;200m02973 ==========================================================================
=================================================[39m|
02974 你好 lambda 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02975 warn mu
[39m[49m02976 alpha
           02977 [33mbeta[39m theta zeta
02978 [34mgamma[39m gamma lambda
02979 [35mdelta[39m kappa delta
[1m[36m02980[0m[39m[49m epsilon done
[97m[41m02981 FAIL zeta
[38;5;166m[49m02982[39m   [38;5;166meta[39m     [38;5;166mkappa
[38;2;167;100;200m02983 ==========================================================================
===========================================================[39m|
02984 你好 iota 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02985 warn kappa
[39m[49m02986 lambda
            02987 [36mmu[39m zeta theta
02988 [37malpha[39m alpha alpha
02989 [31mbeta[39m theta zeta
[1m[32m02990[0m[39m[49m gamma done
[97m[41m02991 FAIL delta
[38;5;176m[49m02992[39m   [38;5;176mepsilon[39m [38;5;176mtheta
[38;2;177;100;200m02993 ==========================================================================
=====================================================================[39m|
02994 你好 eta 😀 [4:3m[58;5;2mcurly
[0m[33m[44m02995 warn theta
[39m[49m02996 iota
          02997 [32mkappa[39m delta kappa
02998 [33mlambda[39m lambda gamma
02999 [34mmu[39m zeta theta
[1m[35m03000[0m[39m[49m alpha done

