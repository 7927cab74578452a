// Loops whose bounds, steps or spans reach the limits of the index type.
// The mapping counts iterations (0 to the trip count) and computes each
// induction variable as lb + k * step inside, so no start, stride or span
// wraps: every iteration runs exactly once, under every grid policy and
// block shape, for loop mapping and reductions alike. Each iteration k adds
// 1 to count[k] and stores its induction variable in vals[k]; each
// reduction sums 1 and k over its iterations. The original loops cannot run
// on the CPU (scf.for's own `iv + step` wraps), so the expected values are
// written out below.
// REQUIRES: mlir-runner

// RUN: threadbind-opt %s -threadbind-map-to-gpu -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu | FileCheck %s
// RUN: threadbind-opt %s -threadbind-map-to-gpu=grid-policy=cover -threadbind-remove-tail-checks=strategy=split -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu | FileCheck %s
// RUN: threadbind-opt %s -threadbind-map-to-gpu="threads-per-block=32 max-blocks=2" -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu | FileCheck %s
// RUN: threadbind-opt %s -threadbind-map-to-gpu="block-shape=8,4,2" -threadbind-widen-accesses=nested-loops -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu | FileCheck %s
// RUN: threadbind-opt %s -threadbind-map-reductions="unroll=3 threads-per-block=64" -threadbind-map-loops-to-threads -threadbind-test-emulate-gpu-launch %lower_to_cpu | %run_cpu | FileCheck %s

// Iteration k of a loop from %lb by %step is (%i - %lb) / %step, exact as
// an unsigned division whatever the signs.
func.func @walk(%lb: index, %ub: index, %step: index, %count: memref<?xi64>,
                %vals: memref<?xi64>) {
  %one = arith.constant 1 : i64
  scf.parallel (%i) = (%lb) to (%ub) step (%step) {
    %d = arith.subi %i, %lb : index
    %k = arith.divui %d, %step : index
    %c = memref.load %count[%k] : memref<?xi64>
    %c1 = arith.addi %c, %one : i64
    memref.store %c1, %count[%k] : memref<?xi64>
    %v = arith.index_cast %i : index to i64
    memref.store %v, %vals[%k] : memref<?xi64>
  }
  return
}

// The same over two dimensions, the first at the limits, the second 0 to
// 3: element [k, j] counts.
func.func @walk2(%lb: index, %ub: index, %step: index,
                 %count: memref<?x3xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1 : i64
  scf.parallel (%i, %j) = (%lb, %c0) to (%ub, %c3) step (%step, %c1) {
    %d = arith.subi %i, %lb : index
    %k = arith.divui %d, %step : index
    %c = memref.load %count[%k, %j] : memref<?x3xi64>
    %c2 = arith.addi %c, %one : i64
    memref.store %c2, %count[%k, %j] : memref<?x3xi64>
  }
  return
}

// Four dimensions, two of them at the limits: z carries a linearised pair.
func.func @walk4(%lb: index, %ub: index, %step: index,
                 %count: memref<?x2x?x2xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i64
  scf.parallel (%i, %a, %j, %b) = (%lb, %c0, %lb, %c0) to (%ub, %c2, %ub, %c2)
      step (%step, %c1, %step, %c1) {
    %di = arith.subi %i, %lb : index
    %ki = arith.divui %di, %step : index
    %dj = arith.subi %j, %lb : index
    %kj = arith.divui %dj, %step : index
    %c = memref.load %count[%ki, %a, %kj, %b] : memref<?x2x?x2xi64>
    %c3 = arith.addi %c, %one : i64
    memref.store %c3, %count[%ki, %a, %kj, %b] : memref<?x2x?x2xi64>
  }
  return
}

// sum(1) and sum(k) over the iterations.
func.func @reduce(%lb: index, %ub: index, %step: index, %out: memref<2xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %n, %s = scf.parallel (%i) = (%lb) to (%ub) step (%step)
      init (%zero, %zero) -> (i64, i64) {
    %d = arith.subi %i, %lb : index
    %k = arith.divui %d, %step : index
    %ki = arith.index_cast %k : index to i64
    scf.reduce(%one, %ki : i64, i64) {
    ^bb0(%x: i64, %y: i64):
      %r = arith.addi %x, %y : i64
      scf.reduce.return %r : i64
    }, {
    ^bb0(%x: i64, %y: i64):
      %r = arith.addi %x, %y : i64
      scf.reduce.return %r : i64
    }
  }
  memref.store %n, %out[%c0] : memref<2xi64>
  memref.store %s, %out[%c1] : memref<2xi64>
  return
}

// Two rows, each a reduction at the limits: a row reduction kernel.
func.func @reduce_rows(%lb: index, %ub: index, %step: index,
                       %out: memref<2xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i64
  scf.parallel (%r) = (%c0) to (%c2) step (%c1) {
    %r64 = arith.index_cast %r : index to i64
    %n = scf.parallel (%i) = (%lb) to (%ub) step (%step)
        init (%zero) -> i64 {
      %d = arith.subi %i, %lb : index
      %k = arith.divui %d, %step : index
      %ki = arith.index_cast %k : index to i64
      %t = arith.addi %ki, %r64 : i64
      scf.reduce(%t : i64) {
      ^bb0(%x: i64, %y: i64):
        %s = arith.addi %x, %y : i64
        scf.reduce.return %s : i64
      }
    }
    memref.store %n, %out[%r] : memref<2xi64>
    scf.reduce
  }
  return
}

func.func @threadbind_max_resident_blocks(%threads: index) -> index {
  %c3 = arith.constant 3 : index
  return %c3 : index
}

// Prints the sum, the least and the largest element.
func.func @print_counts(%m: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %big = arith.constant 1000 : i64
  %n = memref.dim %m, %c0 : memref<?xi64>
  %sum, %min, %max = scf.for %i = %c0 to %n step %c1
      iter_args(%s = %zero, %lo = %big, %hi = %zero) -> (i64, i64, i64) {
    %v = memref.load %m[%i] : memref<?xi64>
    %s1 = arith.addi %s, %v : i64
    %lo1 = arith.minsi %lo, %v : i64
    %hi1 = arith.maxsi %hi, %v : i64
    scf.yield %s1, %lo1, %hi1 : i64, i64, i64
  }
  vector.print %sum : i64
  vector.print %min : i64
  vector.print %max : i64
  return
}

func.func @print_all(%m: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xi64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %m[%i] : memref<?xi64>
    vector.print %v : i64
  }
  return
}

// Runs every form of the loop at these bounds and prints what it did.
func.func @run(%lb: index, %ub: index, %step: index, %trips: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %zero = arith.constant 0 : i64
  %count = memref.alloc(%trips) : memref<?xi64>
  %vals = memref.alloc(%trips) : memref<?xi64>
  scf.for %k = %c0 to %trips step %c1 {
    memref.store %zero, %count[%k] : memref<?xi64>
    memref.store %zero, %vals[%k] : memref<?xi64>
  }
  func.call @walk(%lb, %ub, %step, %count, %vals)
      : (index, index, index, memref<?xi64>, memref<?xi64>) -> ()
  vector.print str "counts\n"
  func.call @print_counts(%count) : (memref<?xi64>) -> ()
  vector.print str "values\n"
  func.call @print_all(%vals) : (memref<?xi64>) -> ()

  %count2 = memref.alloc(%trips) : memref<?x3xi64>
  %flat2 = memref.collapse_shape %count2 [[0, 1]] : memref<?x3xi64> into memref<?xi64>
  %n2 = arith.muli %trips, %c2 : index
  %n3 = arith.addi %n2, %trips : index
  scf.for %k = %c0 to %n3 step %c1 {
    memref.store %zero, %flat2[%k] : memref<?xi64>
  }
  func.call @walk2(%lb, %ub, %step, %count2)
      : (index, index, index, memref<?x3xi64>) -> ()
  vector.print str "counts 2-D\n"
  func.call @print_counts(%flat2) : (memref<?xi64>) -> ()

  %count4 = memref.alloc(%trips, %trips) : memref<?x2x?x2xi64>
  %flat4 = memref.collapse_shape %count4 [[0, 1, 2, 3]] : memref<?x2x?x2xi64> into memref<?xi64>
  %sq = arith.muli %trips, %trips : index
  %n4 = arith.muli %sq, %c4 : index
  scf.for %k = %c0 to %n4 step %c1 {
    memref.store %zero, %flat4[%k] : memref<?xi64>
  }
  func.call @walk4(%lb, %ub, %step, %count4)
      : (index, index, index, memref<?x2x?x2xi64>) -> ()
  vector.print str "counts 4-D\n"
  func.call @print_counts(%flat4) : (memref<?xi64>) -> ()

  %sums = memref.alloc() : memref<2xi64>
  func.call @reduce(%lb, %ub, %step, %sums)
      : (index, index, index, memref<2xi64>) -> ()
  %sumsd = memref.cast %sums : memref<2xi64> to memref<?xi64>
  vector.print str "reduced\n"
  func.call @print_all(%sumsd) : (memref<?xi64>) -> ()
  func.call @reduce_rows(%lb, %ub, %step, %sums)
      : (index, index, index, memref<2xi64>) -> ()
  vector.print str "rows\n"
  func.call @print_all(%sumsd) : (memref<?xi64>) -> ()
  memref.dealloc %count : memref<?xi64>
  memref.dealloc %vals : memref<?xi64>
  memref.dealloc %count2 : memref<?x3xi64>
  memref.dealloc %count4 : memref<?x2x?x2xi64>
  memref.dealloc %sums : memref<2xi64>
  return
}

// CHECK-LABEL: big_step
// CHECK-NEXT: counts
// CHECK-NEXT: 2
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: values
// CHECK-NEXT: 0
// CHECK-NEXT: 72057594037927936
// CHECK-NEXT: counts 2-D
// CHECK-NEXT: 6
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: counts 4-D
// CHECK-NEXT: 16
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: reduced
// CHECK-NEXT: 2
// CHECK-NEXT: 1
// CHECK-NEXT: rows
// CHECK-NEXT: 1
// CHECK-NEXT: 3
// CHECK-LABEL: many_big_steps
// CHECK-NEXT: counts
// CHECK-NEXT: 300
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: values
// CHECK-NEXT: 0
// CHECK-NEXT: 18014398509481984
// CHECK-NEXT: 36028797018963968
// CHECK-NEXT: 54043195528445952
// CHECK-NEXT: 72057594037927936
// CHECK-NEXT: 90071992547409920
// CHECK-NEXT: 108086391056891904
// CHECK-NEXT: 126100789566373888
// CHECK-NEXT: 144115188075855872
// CHECK-NEXT: 162129586585337856
// CHECK-NEXT: 180143985094819840
// CHECK-NEXT: 198158383604301824
// CHECK-NEXT: 216172782113783808
// CHECK-NEXT: 234187180623265792
// CHECK-NEXT: 252201579132747776
// CHECK-NEXT: 270215977642229760
// CHECK-NEXT: 288230376151711744
// CHECK-NEXT: 306244774661193728
// CHECK-NEXT: 324259173170675712
// CHECK-NEXT: 342273571680157696
// CHECK-NEXT: 360287970189639680
// CHECK-NEXT: 378302368699121664
// CHECK-NEXT: 396316767208603648
// CHECK-NEXT: 414331165718085632
// CHECK-NEXT: 432345564227567616
// CHECK-NEXT: 450359962737049600
// CHECK-NEXT: 468374361246531584
// CHECK-NEXT: 486388759756013568
// CHECK-NEXT: 504403158265495552
// CHECK-NEXT: 522417556774977536
// CHECK-NEXT: 540431955284459520
// CHECK-NEXT: 558446353793941504
// CHECK-NEXT: 576460752303423488
// CHECK-NEXT: 594475150812905472
// CHECK-NEXT: 612489549322387456
// CHECK-NEXT: 630503947831869440
// CHECK-NEXT: 648518346341351424
// CHECK-NEXT: 666532744850833408
// CHECK-NEXT: 684547143360315392
// CHECK-NEXT: 702561541869797376
// CHECK-NEXT: 720575940379279360
// CHECK-NEXT: 738590338888761344
// CHECK-NEXT: 756604737398243328
// CHECK-NEXT: 774619135907725312
// CHECK-NEXT: 792633534417207296
// CHECK-NEXT: 810647932926689280
// CHECK-NEXT: 828662331436171264
// CHECK-NEXT: 846676729945653248
// CHECK-NEXT: 864691128455135232
// CHECK-NEXT: 882705526964617216
// CHECK-NEXT: 900719925474099200
// CHECK-NEXT: 918734323983581184
// CHECK-NEXT: 936748722493063168
// CHECK-NEXT: 954763121002545152
// CHECK-NEXT: 972777519512027136
// CHECK-NEXT: 990791918021509120
// CHECK-NEXT: 1008806316530991104
// CHECK-NEXT: 1026820715040473088
// CHECK-NEXT: 1044835113549955072
// CHECK-NEXT: 1062849512059437056
// CHECK-NEXT: 1080863910568919040
// CHECK-NEXT: 1098878309078401024
// CHECK-NEXT: 1116892707587883008
// CHECK-NEXT: 1134907106097364992
// CHECK-NEXT: 1152921504606846976
// CHECK-NEXT: 1170935903116328960
// CHECK-NEXT: 1188950301625810944
// CHECK-NEXT: 1206964700135292928
// CHECK-NEXT: 1224979098644774912
// CHECK-NEXT: 1242993497154256896
// CHECK-NEXT: 1261007895663738880
// CHECK-NEXT: 1279022294173220864
// CHECK-NEXT: 1297036692682702848
// CHECK-NEXT: 1315051091192184832
// CHECK-NEXT: 1333065489701666816
// CHECK-NEXT: 1351079888211148800
// CHECK-NEXT: 1369094286720630784
// CHECK-NEXT: 1387108685230112768
// CHECK-NEXT: 1405123083739594752
// CHECK-NEXT: 1423137482249076736
// CHECK-NEXT: 1441151880758558720
// CHECK-NEXT: 1459166279268040704
// CHECK-NEXT: 1477180677777522688
// CHECK-NEXT: 1495195076287004672
// CHECK-NEXT: 1513209474796486656
// CHECK-NEXT: 1531223873305968640
// CHECK-NEXT: 1549238271815450624
// CHECK-NEXT: 1567252670324932608
// CHECK-NEXT: 1585267068834414592
// CHECK-NEXT: 1603281467343896576
// CHECK-NEXT: 1621295865853378560
// CHECK-NEXT: 1639310264362860544
// CHECK-NEXT: 1657324662872342528
// CHECK-NEXT: 1675339061381824512
// CHECK-NEXT: 1693353459891306496
// CHECK-NEXT: 1711367858400788480
// CHECK-NEXT: 1729382256910270464
// CHECK-NEXT: 1747396655419752448
// CHECK-NEXT: 1765411053929234432
// CHECK-NEXT: 1783425452438716416
// CHECK-NEXT: 1801439850948198400
// CHECK-NEXT: 1819454249457680384
// CHECK-NEXT: 1837468647967162368
// CHECK-NEXT: 1855483046476644352
// CHECK-NEXT: 1873497444986126336
// CHECK-NEXT: 1891511843495608320
// CHECK-NEXT: 1909526242005090304
// CHECK-NEXT: 1927540640514572288
// CHECK-NEXT: 1945555039024054272
// CHECK-NEXT: 1963569437533536256
// CHECK-NEXT: 1981583836043018240
// CHECK-NEXT: 1999598234552500224
// CHECK-NEXT: 2017612633061982208
// CHECK-NEXT: 2035627031571464192
// CHECK-NEXT: 2053641430080946176
// CHECK-NEXT: 2071655828590428160
// CHECK-NEXT: 2089670227099910144
// CHECK-NEXT: 2107684625609392128
// CHECK-NEXT: 2125699024118874112
// CHECK-NEXT: 2143713422628356096
// CHECK-NEXT: 2161727821137838080
// CHECK-NEXT: 2179742219647320064
// CHECK-NEXT: 2197756618156802048
// CHECK-NEXT: 2215771016666284032
// CHECK-NEXT: 2233785415175766016
// CHECK-NEXT: 2251799813685248000
// CHECK-NEXT: 2269814212194729984
// CHECK-NEXT: 2287828610704211968
// CHECK-NEXT: 2305843009213693952
// CHECK-NEXT: 2323857407723175936
// CHECK-NEXT: 2341871806232657920
// CHECK-NEXT: 2359886204742139904
// CHECK-NEXT: 2377900603251621888
// CHECK-NEXT: 2395915001761103872
// CHECK-NEXT: 2413929400270585856
// CHECK-NEXT: 2431943798780067840
// CHECK-NEXT: 2449958197289549824
// CHECK-NEXT: 2467972595799031808
// CHECK-NEXT: 2485986994308513792
// CHECK-NEXT: 2504001392817995776
// CHECK-NEXT: 2522015791327477760
// CHECK-NEXT: 2540030189836959744
// CHECK-NEXT: 2558044588346441728
// CHECK-NEXT: 2576058986855923712
// CHECK-NEXT: 2594073385365405696
// CHECK-NEXT: 2612087783874887680
// CHECK-NEXT: 2630102182384369664
// CHECK-NEXT: 2648116580893851648
// CHECK-NEXT: 2666130979403333632
// CHECK-NEXT: 2684145377912815616
// CHECK-NEXT: 2702159776422297600
// CHECK-NEXT: 2720174174931779584
// CHECK-NEXT: 2738188573441261568
// CHECK-NEXT: 2756202971950743552
// CHECK-NEXT: 2774217370460225536
// CHECK-NEXT: 2792231768969707520
// CHECK-NEXT: 2810246167479189504
// CHECK-NEXT: 2828260565988671488
// CHECK-NEXT: 2846274964498153472
// CHECK-NEXT: 2864289363007635456
// CHECK-NEXT: 2882303761517117440
// CHECK-NEXT: 2900318160026599424
// CHECK-NEXT: 2918332558536081408
// CHECK-NEXT: 2936346957045563392
// CHECK-NEXT: 2954361355555045376
// CHECK-NEXT: 2972375754064527360
// CHECK-NEXT: 2990390152574009344
// CHECK-NEXT: 3008404551083491328
// CHECK-NEXT: 3026418949592973312
// CHECK-NEXT: 3044433348102455296
// CHECK-NEXT: 3062447746611937280
// CHECK-NEXT: 3080462145121419264
// CHECK-NEXT: 3098476543630901248
// CHECK-NEXT: 3116490942140383232
// CHECK-NEXT: 3134505340649865216
// CHECK-NEXT: 3152519739159347200
// CHECK-NEXT: 3170534137668829184
// CHECK-NEXT: 3188548536178311168
// CHECK-NEXT: 3206562934687793152
// CHECK-NEXT: 3224577333197275136
// CHECK-NEXT: 3242591731706757120
// CHECK-NEXT: 3260606130216239104
// CHECK-NEXT: 3278620528725721088
// CHECK-NEXT: 3296634927235203072
// CHECK-NEXT: 3314649325744685056
// CHECK-NEXT: 3332663724254167040
// CHECK-NEXT: 3350678122763649024
// CHECK-NEXT: 3368692521273131008
// CHECK-NEXT: 3386706919782612992
// CHECK-NEXT: 3404721318292094976
// CHECK-NEXT: 3422735716801576960
// CHECK-NEXT: 3440750115311058944
// CHECK-NEXT: 3458764513820540928
// CHECK-NEXT: 3476778912330022912
// CHECK-NEXT: 3494793310839504896
// CHECK-NEXT: 3512807709348986880
// CHECK-NEXT: 3530822107858468864
// CHECK-NEXT: 3548836506367950848
// CHECK-NEXT: 3566850904877432832
// CHECK-NEXT: 3584865303386914816
// CHECK-NEXT: 3602879701896396800
// CHECK-NEXT: 3620894100405878784
// CHECK-NEXT: 3638908498915360768
// CHECK-NEXT: 3656922897424842752
// CHECK-NEXT: 3674937295934324736
// CHECK-NEXT: 3692951694443806720
// CHECK-NEXT: 3710966092953288704
// CHECK-NEXT: 3728980491462770688
// CHECK-NEXT: 3746994889972252672
// CHECK-NEXT: 3765009288481734656
// CHECK-NEXT: 3783023686991216640
// CHECK-NEXT: 3801038085500698624
// CHECK-NEXT: 3819052484010180608
// CHECK-NEXT: 3837066882519662592
// CHECK-NEXT: 3855081281029144576
// CHECK-NEXT: 3873095679538626560
// CHECK-NEXT: 3891110078048108544
// CHECK-NEXT: 3909124476557590528
// CHECK-NEXT: 3927138875067072512
// CHECK-NEXT: 3945153273576554496
// CHECK-NEXT: 3963167672086036480
// CHECK-NEXT: 3981182070595518464
// CHECK-NEXT: 3999196469105000448
// CHECK-NEXT: 4017210867614482432
// CHECK-NEXT: 4035225266123964416
// CHECK-NEXT: 4053239664633446400
// CHECK-NEXT: 4071254063142928384
// CHECK-NEXT: 4089268461652410368
// CHECK-NEXT: 4107282860161892352
// CHECK-NEXT: 4125297258671374336
// CHECK-NEXT: 4143311657180856320
// CHECK-NEXT: 4161326055690338304
// CHECK-NEXT: 4179340454199820288
// CHECK-NEXT: 4197354852709302272
// CHECK-NEXT: 4215369251218784256
// CHECK-NEXT: 4233383649728266240
// CHECK-NEXT: 4251398048237748224
// CHECK-NEXT: 4269412446747230208
// CHECK-NEXT: 4287426845256712192
// CHECK-NEXT: 4305441243766194176
// CHECK-NEXT: 4323455642275676160
// CHECK-NEXT: 4341470040785158144
// CHECK-NEXT: 4359484439294640128
// CHECK-NEXT: 4377498837804122112
// CHECK-NEXT: 4395513236313604096
// CHECK-NEXT: 4413527634823086080
// CHECK-NEXT: 4431542033332568064
// CHECK-NEXT: 4449556431842050048
// CHECK-NEXT: 4467570830351532032
// CHECK-NEXT: 4485585228861014016
// CHECK-NEXT: 4503599627370496000
// CHECK-NEXT: 4521614025879977984
// CHECK-NEXT: 4539628424389459968
// CHECK-NEXT: 4557642822898941952
// CHECK-NEXT: 4575657221408423936
// CHECK-NEXT: 4593671619917905920
// CHECK-NEXT: 4611686018427387904
// CHECK-NEXT: 4629700416936869888
// CHECK-NEXT: 4647714815446351872
// CHECK-NEXT: 4665729213955833856
// CHECK-NEXT: 4683743612465315840
// CHECK-NEXT: 4701758010974797824
// CHECK-NEXT: 4719772409484279808
// CHECK-NEXT: 4737786807993761792
// CHECK-NEXT: 4755801206503243776
// CHECK-NEXT: 4773815605012725760
// CHECK-NEXT: 4791830003522207744
// CHECK-NEXT: 4809844402031689728
// CHECK-NEXT: 4827858800541171712
// CHECK-NEXT: 4845873199050653696
// CHECK-NEXT: 4863887597560135680
// CHECK-NEXT: 4881901996069617664
// CHECK-NEXT: 4899916394579099648
// CHECK-NEXT: 4917930793088581632
// CHECK-NEXT: 4935945191598063616
// CHECK-NEXT: 4953959590107545600
// CHECK-NEXT: 4971973988617027584
// CHECK-NEXT: 4989988387126509568
// CHECK-NEXT: 5008002785635991552
// CHECK-NEXT: 5026017184145473536
// CHECK-NEXT: 5044031582654955520
// CHECK-NEXT: 5062045981164437504
// CHECK-NEXT: 5080060379673919488
// CHECK-NEXT: 5098074778183401472
// CHECK-NEXT: 5116089176692883456
// CHECK-NEXT: 5134103575202365440
// CHECK-NEXT: 5152117973711847424
// CHECK-NEXT: 5170132372221329408
// CHECK-NEXT: 5188146770730811392
// CHECK-NEXT: 5206161169240293376
// CHECK-NEXT: 5224175567749775360
// CHECK-NEXT: 5242189966259257344
// CHECK-NEXT: 5260204364768739328
// CHECK-NEXT: 5278218763278221312
// CHECK-NEXT: 5296233161787703296
// CHECK-NEXT: 5314247560297185280
// CHECK-NEXT: 5332261958806667264
// CHECK-NEXT: 5350276357316149248
// CHECK-NEXT: 5368290755825631232
// CHECK-NEXT: 5386305154335113216
// CHECK-NEXT: counts 2-D
// CHECK-NEXT: 900
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: counts 4-D
// CHECK-NEXT: 360000
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: reduced
// CHECK-NEXT: 300
// CHECK-NEXT: 44850
// CHECK-NEXT: rows
// CHECK-NEXT: 44850
// CHECK-NEXT: 45150
// CHECK-LABEL: near_max
// CHECK-NEXT: counts
// CHECK-NEXT: 9
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: values
// CHECK-NEXT: 9223372036854775798
// CHECK-NEXT: 9223372036854775799
// CHECK-NEXT: 9223372036854775800
// CHECK-NEXT: 9223372036854775801
// CHECK-NEXT: 9223372036854775802
// CHECK-NEXT: 9223372036854775803
// CHECK-NEXT: 9223372036854775804
// CHECK-NEXT: 9223372036854775805
// CHECK-NEXT: 9223372036854775806
// CHECK-NEXT: counts 2-D
// CHECK-NEXT: 27
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: counts 4-D
// CHECK-NEXT: 324
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: reduced
// CHECK-NEXT: 9
// CHECK-NEXT: 36
// CHECK-NEXT: rows
// CHECK-NEXT: 36
// CHECK-NEXT: 45
// CHECK-LABEL: span_wraps
// CHECK-NEXT: counts
// CHECK-NEXT: 3
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: values
// CHECK-NEXT: -4611686018427387904
// CHECK-NEXT: 0
// CHECK-NEXT: 4611686018427387904
// CHECK-NEXT: counts 2-D
// CHECK-NEXT: 9
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: counts 4-D
// CHECK-NEXT: 36
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: reduced
// CHECK-NEXT: 3
// CHECK-NEXT: 3
// CHECK-NEXT: rows
// CHECK-NEXT: 3
// CHECK-NEXT: 6
// CHECK-LABEL: full_range
// CHECK-NEXT: counts
// CHECK-NEXT: 3
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: values
// CHECK-NEXT: -9223372036854775808
// CHECK-NEXT: -1
// CHECK-NEXT: 9223372036854775806
// CHECK-NEXT: counts 2-D
// CHECK-NEXT: 9
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: counts 4-D
// CHECK-NEXT: 36
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: reduced
// CHECK-NEXT: 3
// CHECK-NEXT: 3
// CHECK-NEXT: rows
// CHECK-NEXT: 3
// CHECK-NEXT: 6
// CHECK-LABEL: past_max
// CHECK-NEXT: counts
// CHECK-NEXT: 3
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: values
// CHECK-NEXT: 9223372036854775802
// CHECK-NEXT: 9223372036854775804
// CHECK-NEXT: 9223372036854775806
// CHECK-NEXT: counts 2-D
// CHECK-NEXT: 9
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: counts 4-D
// CHECK-NEXT: 36
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: reduced
// CHECK-NEXT: 3
// CHECK-NEXT: 3
// CHECK-NEXT: rows
// CHECK-NEXT: 3
// CHECK-NEXT: 6
// CHECK-LABEL: empty
// CHECK-NEXT: counts
// CHECK-NEXT: 0
// CHECK-NEXT: 1000
// CHECK-NEXT: 0
// CHECK-NEXT: values
// CHECK-NEXT: counts 2-D
// CHECK-NEXT: 0
// CHECK-NEXT: 1000
// CHECK-NEXT: 0
// CHECK-NEXT: counts 4-D
// CHECK-NEXT: 0
// CHECK-NEXT: 1000
// CHECK-NEXT: 0
// CHECK-NEXT: reduced
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-NEXT: rows
// CHECK-NEXT: 0
// CHECK-NEXT: 0
// CHECK-LABEL: near_min
// CHECK-NEXT: counts
// CHECK-NEXT: 5
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: values
// CHECK-NEXT: -9223372036854775808
// CHECK-NEXT: -9223372036854775807
// CHECK-NEXT: -9223372036854775806
// CHECK-NEXT: -9223372036854775805
// CHECK-NEXT: -9223372036854775804
// CHECK-NEXT: counts 2-D
// CHECK-NEXT: 15
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: counts 4-D
// CHECK-NEXT: 100
// CHECK-NEXT: 1
// CHECK-NEXT: 1
// CHECK-NEXT: reduced
// CHECK-NEXT: 5
// CHECK-NEXT: 10
// CHECK-NEXT: rows
// CHECK-NEXT: 10
// CHECK-NEXT: 15
func.func @main() {
  // big_step: 2 iterations
  vector.print str "big_step\n"
  %big_step_lb = arith.constant 0 : index
  %big_step_ub = arith.constant 144115188075855872 : index
  %big_step_st = arith.constant 72057594037927936 : index
  %big_step_t = arith.constant 2 : index
  func.call @run(%big_step_lb, %big_step_ub, %big_step_st, %big_step_t) : (index, index, index, index) -> ()
  // many_big_steps: 300 iterations
  vector.print str "many_big_steps\n"
  %many_big_steps_lb = arith.constant 0 : index
  %many_big_steps_ub = arith.constant 5404319552844595200 : index
  %many_big_steps_st = arith.constant 18014398509481984 : index
  %many_big_steps_t = arith.constant 300 : index
  func.call @run(%many_big_steps_lb, %many_big_steps_ub, %many_big_steps_st, %many_big_steps_t) : (index, index, index, index) -> ()
  // near_max: 9 iterations
  vector.print str "near_max\n"
  %near_max_lb = arith.constant 9223372036854775798 : index
  %near_max_ub = arith.constant 9223372036854775807 : index
  %near_max_st = arith.constant 1 : index
  %near_max_t = arith.constant 9 : index
  func.call @run(%near_max_lb, %near_max_ub, %near_max_st, %near_max_t) : (index, index, index, index) -> ()
  // span_wraps: 3 iterations
  vector.print str "span_wraps\n"
  %span_wraps_lb = arith.constant -4611686018427387904 : index
  %span_wraps_ub = arith.constant 9223372036854775807 : index
  %span_wraps_st = arith.constant 4611686018427387904 : index
  %span_wraps_t = arith.constant 3 : index
  func.call @run(%span_wraps_lb, %span_wraps_ub, %span_wraps_st, %span_wraps_t) : (index, index, index, index) -> ()
  // full_range: 3 iterations
  vector.print str "full_range\n"
  %full_range_lb = arith.constant -9223372036854775808 : index
  %full_range_ub = arith.constant 9223372036854775807 : index
  %full_range_st = arith.constant 9223372036854775807 : index
  %full_range_t = arith.constant 3 : index
  func.call @run(%full_range_lb, %full_range_ub, %full_range_st, %full_range_t) : (index, index, index, index) -> ()
  // past_max: 3 iterations
  vector.print str "past_max\n"
  %past_max_lb = arith.constant 9223372036854775802 : index
  %past_max_ub = arith.constant 9223372036854775807 : index
  %past_max_st = arith.constant 2 : index
  %past_max_t = arith.constant 3 : index
  func.call @run(%past_max_lb, %past_max_ub, %past_max_st, %past_max_t) : (index, index, index, index) -> ()
  // empty: 0 iterations
  vector.print str "empty\n"
  %empty_lb = arith.constant 5 : index
  %empty_ub = arith.constant 3 : index
  %empty_st = arith.constant 1 : index
  %empty_t = arith.constant 0 : index
  func.call @run(%empty_lb, %empty_ub, %empty_st, %empty_t) : (index, index, index, index) -> ()
  // near_min: 5 iterations
  vector.print str "near_min\n"
  %near_min_lb = arith.constant -9223372036854775808 : index
  %near_min_ub = arith.constant -9223372036854775803 : index
  %near_min_st = arith.constant 1 : index
  %near_min_t = arith.constant 5 : index
  func.call @run(%near_min_lb, %near_min_ub, %near_min_st, %near_min_t) : (index, index, index, index) -> ()
  return
}
